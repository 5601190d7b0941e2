import type { AppError } from '../../../app/errors';
import type { NodeLinkState } from '../../../app/schemas/pubsub';
import type { ViewerBatch } from '../live/viewerQueue';
import type { Counts, NodePlan, PubSubNames, PubSubViewer } from './pubsubHub';
import type { RawMessage } from './subscriberNode';

/** Tests only: a viewer that records everything the hub tells it. */
export interface Recorded {
  viewer: PubSubViewer;
  /** The latest plan (a viewer that followed a moved name is told a new one). */
  plan: NodePlan[];
  batches: ViewerBatch<RawMessage>[];
  stats: Counts[];
  states: { address: string; state: NodeLinkState; message?: string }[];
  gaps: { address: string; from: number; to: number; reason: string }[];
  notices: string[];
  ended: (AppError | undefined)[];
  messages(): RawMessage[];
  last(): ViewerBatch<RawMessage> | undefined;
  /** Whether every planned node told this viewer it is live (its names all subscribed). */
  live(): boolean;
}

export function recorder(congested: () => boolean = () => false): Recorded {
  const r: Recorded = {
    plan: [],
    batches: [],
    stats: [],
    states: [],
    gaps: [],
    notices: [],
    ended: [],
    messages: () => r.batches.flatMap((b) => b.items),
    last: () => r.batches.at(-1),
    live: () => r.plan.length > 0 && r.plan.every((p) => r.states.filter((s) => s.address === p.address).at(-1)?.state === 'live'),
    viewer: {
      plan: (nodes) => r.plan.splice(0, r.plan.length, ...nodes),
      messages: (b) => r.batches.push(b),
      stats: (c) => r.stats.push(c),
      state: (address, state, message) => r.states.push({ address, state, ...(message === undefined ? {} : { message }) }),
      gap: (address, from, to, reason) => r.gaps.push({ address, from, to, reason }),
      notice: (_address, message) => r.notices.push(message),
      end: (err) => r.ended.push(err),
      congested,
    },
  };
  return r;
}

/** Names as the contract's inputs become them: bytes. */
export function names(o: { channels?: (string | Buffer)[]; patterns?: string[]; shardChannels?: string[] }): PubSubNames {
  const b = (s: string | Buffer) => (typeof s === 'string' ? Buffer.from(s) : s);
  return { channels: (o.channels ?? []).map(b), patterns: (o.patterns ?? []).map(b), shardChannels: (o.shardChannels ?? []).map(b) };
}

export const text = (k: { bytes: Buffer }) => k.bytes.toString('latin1');
