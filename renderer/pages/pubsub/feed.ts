import type { AppError } from '../../../app/errors';
import type { NodeLinkState, PubSubEvent, PubSubMessage } from '../../../app/schemas/pubsub';
import { clockMs } from '../../lib/display';
import { Ring } from '../../lib/ring';

/** Messages held for the list, the filter and the export; older ones go first. */
export const HELD_MESSAGES = 10_000;
/** And at most this much text (channel, pattern, payload): a page of 4 KB payloads stays some 16 MB. */
export const HELD_CHARS = 8_000_000;
/** Rate points kept: five minutes at one stats event a second. */
export const RATE_POINTS = 300;

export type Row = { kind: 'message'; seq: number; m: PubSubMessage } | { kind: 'mark'; seq: number; text: string };

export interface Counters {
  received: number;
  delivered: number;
  dropped: number;
}

export interface RatePoint {
  t: number;
  /** Messages/s this page's subscriptions matched, and those it was sent. */
  received: number;
  delivered: number;
}

export type PlannedNode = Extract<PubSubEvent, { kind: 'plan' }>['nodes'][number];

const sizeOf = (r: Row) => (r.kind === 'mark' ? r.text.length : r.m.channel.text.length + r.m.payload.text.length + (r.m.pattern?.text.length ?? 0));

/**
 * One subscription as the page keeps it: the last messages (bounded in count and in
 * text), the counters exactly as the server sent them (never counted here), each
 * node's state, and a short rate history. Plain mutable state, read after each frame.
 */
export class PubSubFeed {
  readonly rows = new Ring<Row>(HELD_MESSAGES);
  readonly rates = new Ring<RatePoint>(RATE_POINTS);
  counters: Counters | undefined;
  plan: PlannedNode[] = [];
  readonly states = new Map<string, { state: NodeLinkState; message?: string }>();
  notices: string[] = [];
  error: AppError | undefined;
  /** Events the transport dropped (the counters stay exact). */
  transportDropped = 0;
  /** Bumped by each stats event: what the chart redraws on. */
  statsVersion = 0;
  private chars = 0;
  private nextSeq = 0;
  private last: { at: number; received: number; delivered: number } | undefined;

  apply(ev: PubSubEvent): void {
    switch (ev.kind) {
      case 'plan':
        this.plan = ev.nodes;
        for (const n of ev.nodes) this.states.set(n.address, { state: 'connecting' });
        break;
      case 'messages':
        this.counters = { received: ev.received, delivered: ev.delivered, dropped: ev.dropped };
        for (const m of ev.messages) this.push({ kind: 'message', seq: this.nextSeq++, m });
        break;
      case 'stats':
        this.onStats(ev);
        break;
      case 'state':
        this.states.set(ev.address, ev.message === undefined ? { state: ev.state } : { state: ev.state, message: ev.message });
        break;
      case 'gap':
        this.mark(`— no messages from ${ev.address} between ${clockMs(ev.from)} and ${clockMs(ev.to)} (${ev.reason}) —`);
        break;
      case 'notice':
        this.notices = [...this.notices, ev.message].slice(-5);
        break;
    }
  }

  /** Live once every node says its names are all subscribed. */
  get live(): boolean {
    return this.plan.length > 0 && this.plan.every((n) => this.states.get(n.address)?.state === 'live');
  }

  mark(text: string): void {
    this.push({ kind: 'mark', seq: this.nextSeq++, text });
  }

  /** A new subscription: counters from zero; the held messages stay, after a note. */
  restart(note: string | undefined): void {
    if (note !== undefined && this.rows.length > 0) this.mark(note);
    this.counters = undefined;
    this.plan = [];
    this.states.clear();
    this.notices = [];
    this.error = undefined;
    this.transportDropped = 0;
    this.last = undefined;
  }

  clear(): void {
    this.rows.clear();
    this.chars = 0;
  }

  private push(row: Row): void {
    const evicted = this.rows.push(row);
    this.chars += sizeOf(row) - (evicted === undefined ? 0 : sizeOf(evicted));
    while (this.chars > HELD_CHARS && this.rows.length > 1) {
      const old = this.rows.shift();
      if (old !== undefined) this.chars -= sizeOf(old);
    }
  }

  private onStats(ev: Extract<PubSubEvent, { kind: 'stats' }>): void {
    this.counters = { received: ev.received, delivered: ev.delivered, dropped: ev.dropped };
    this.statsVersion++;
    const prev = this.last;
    this.last = { at: ev.at, received: ev.received, delivered: ev.delivered };
    if (prev === undefined || ev.at <= prev.at) return;
    const per = (a: number, b: number) => Math.round(((a - b) * 1000) / (ev.at - prev.at));
    this.rates.push({ t: ev.at, received: per(ev.received, prev.received), delivered: per(ev.delivered, prev.delivered) });
  }
}
