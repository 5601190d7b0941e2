import { describe, expect, it } from 'vitest';
import type { StreamHandlers } from '../../../app/bridge';
import { AppError } from '../../../app/errors';
import type { PubSubEvent, PubSubMessage } from '../../../app/schemas/pubsub';
import { PubSubSession, type SubscribePlan } from './session';

interface Sub {
  input: unknown;
  handlers: StreamHandlers<PubSubEvent>;
  closed: boolean;
}

function setup() {
  const subs: Sub[] = [];
  const frames: (() => void)[] = [];
  const bridge = {
    subscribe: (_name: string, input: unknown, handlers: StreamHandlers<PubSubEvent>) => {
      const s: Sub = { input, handlers, closed: false };
      subs.push(s);
      return () => {
        s.closed = true;
      };
    },
  };
  const session = new PubSubSession(bridge as never, (run) => frames.push(run), 0);
  return { session, subs, open: () => subs.filter((s) => !s.closed), flush: () => frames.splice(0).forEach((f) => f()) };
}

const plan = (over: Partial<SubscribePlan> = {}): SubscribePlan => ({
  profileId: 'p',
  channels: ['bmV3cw=='],
  patterns: [],
  shardChannels: [],
  running: true,
  generation: '1',
  ...over,
});
const msg = (payload: string): PubSubMessage => ({
  at: 1,
  node: 'n:1',
  kind: 'message',
  channel: { text: 'news', bytes: 4, truncated: false },
  payload: { text: payload, bytes: payload.length, truncated: false },
});
const batch = (...payloads: string[]): PubSubEvent => ({
  kind: 'messages',
  messages: payloads.map(msg),
  received: payloads.length,
  delivered: payloads.length,
  dropped: 0,
});
const payloads = (s: PubSubSession, q = '') => s.view(q).map((r) => (r.kind === 'message' ? r.m.payload.text : r.text));

describe('PubSubSession', () => {
  it('subscribes once per plan, again on a new generation, and not while stopped', () => {
    const { session, subs, open } = setup();
    session.sync(plan());
    session.sync(plan());
    expect(subs).toHaveLength(1);
    expect(subs[0]?.input).toEqual({ profileId: 'p', channels: ['bmV3cw=='], patterns: [], shardChannels: [] });
    session.sync(plan({ generation: '2' }));
    expect(subs).toHaveLength(2);
    expect(open()).toHaveLength(1);
    session.sync(plan({ running: false }));
    expect(open()).toHaveLength(0);
  });

  it('shows the newest first, narrowed by the filter; Pause freezes the view while messages keep arriving', () => {
    const { session, open } = setup();
    session.sync(plan());
    open()[0]?.handlers.onEvents([batch('a', 'b')], 0);
    expect(payloads(session)).toEqual(['b', 'a']);
    session.pause();
    open()[0]?.handlers.onEvents([batch('c')], 0);
    expect(payloads(session)).toEqual(['b', 'a']);
    expect(session.feed.rows.length).toBe(3);
    session.resume();
    expect(payloads(session, 'C')).toEqual(['c']);
  });

  it('keeps the server’s error when the stream ends, and tells listeners once a frame', () => {
    const { session, open, flush } = setup();
    let heard = 0;
    session.listen(() => heard++);
    session.sync(plan());
    open()[0]?.handlers.onEvents([batch('a')], 0);
    open()[0]?.handlers.onEvents([batch('b')], 0);
    flush();
    expect(heard).toBe(1);
    open()[0]?.handlers.onEnd?.(new AppError('NOPERM', 'refused SUBSCRIBE "news"'));
    expect(session.live).toBe(false);
    expect(session.feed.error?.code).toBe('NOPERM');
  });
});
