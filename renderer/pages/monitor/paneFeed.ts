import type { AppError } from '../../../app/errors';
import type { MonitorEvent, MonitorLine } from '../../../app/schemas/monitor';
import { gapText } from './lineText';
import { Ring } from '../../lib/ring';
import type { Row } from './rows';

/** Lines kept per node for the list, search and export: the rest are only counted. */
export const BUFFER_LINES = 10_000;
/** Rate points kept per node: five minutes at one stats event a second. */
export const RATE_POINTS = 300;

type LinesEvent = Extract<MonitorEvent, { kind: 'lines' }>;
export type StatsEvent = Extract<MonitorEvent, { kind: 'stats' }>;
export type WatchState = Extract<MonitorEvent, { kind: 'state' }>['state'];

/** As the server counted them, all from one batch: they add up (see MonitorEvent 'lines'). */
export type Counters = Omit<LinesEvent, 'kind' | 'lines'>;

export interface RatePoint {
  t: number;
  /** Lines/s the node sent, all of them. */
  lines: number;
  /** Lines/s this viewer was sent, from the change of `delivered` between two stats events. */
  delivered: number | null;
}

/**
 * One node's stream as the page keeps it: the last BUFFER_LINES rows, the
 * counters exactly as the server sent them (never counted here), the latest
 * stats and a short rate history. Plain mutable state, read by the components
 * after each animation frame: React holds only a version number.
 */
export class PaneFeed {
  readonly rows = new Ring<Row>(BUFFER_LINES);
  readonly rates = new Ring<RatePoint>(RATE_POINTS);
  counters: Counters | undefined;
  stats: StatsEvent | undefined;
  state: WatchState | undefined;
  stateMessage: string | undefined;
  /** The session limit's message, once the server ended the stream with it. */
  ended: string | undefined;
  error: AppError | undefined;
  /** Events the transport dropped for this subscription (the counters stay exact). */
  transportDropped = 0;
  /** Bumped by each stats event: what the chart and the top tables redraw on. */
  statsVersion = 0;
  private nextSeq = 0;
  private lastDelivered: { t: number; delivered: number } | undefined;

  /** Folds one event in; returns the lines it brought, for the replication matcher. */
  apply(ev: MonitorEvent): readonly MonitorLine[] {
    switch (ev.kind) {
      case 'lines':
        this.counters = countersOf(ev);
        for (const line of ev.lines) this.rows.push({ kind: 'line', seq: this.nextSeq++, line });
        return ev.lines;
      case 'stats':
        this.onStats(ev);
        break;
      case 'state':
        this.state = ev.state;
        this.stateMessage = ev.message;
        break;
      case 'gap':
        this.rows.push({ kind: 'mark', seq: this.nextSeq++, text: gapText(ev.from, ev.to, ev.reason), gap: ev });
        break;
      case 'ended':
        this.ended = ev.message;
        break;
    }
    return [];
  }

  /** A new subscription: its counters start from zero; the buffered rows stay, after a note. */
  restart(note: string | undefined): void {
    if (note !== undefined && this.rows.length > 0) this.mark(note);
    this.counters = undefined;
    this.state = 'connecting';
    this.stateMessage = undefined;
    this.ended = undefined;
    this.error = undefined;
    this.transportDropped = 0;
    this.lastDelivered = undefined;
  }

  mark(text: string): void {
    this.rows.push({ kind: 'mark', seq: this.nextSeq++, text });
  }

  clear(): void {
    this.rows.clear();
  }

  private onStats(ev: StatsEvent): void {
    this.stats = ev;
    this.statsVersion++;
    const delivered = this.counters?.delivered ?? 0;
    const prev = this.lastDelivered;
    const rate = prev !== undefined && ev.at > prev.t ? ((delivered - prev.delivered) * 1000) / (ev.at - prev.t) : null;
    this.lastDelivered = { t: ev.at, delivered };
    this.rates.push({ t: ev.at, lines: ev.linesPerSec, delivered: rate === null ? null : Math.round(rate) });
  }
}

function countersOf({ received, unparsed, filteredOut, matched, delivered, dropped }: LinesEvent): Counters {
  return { received, unparsed, filteredOut, matched, delivered, dropped };
}
