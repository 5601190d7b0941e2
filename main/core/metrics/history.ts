import type { NodeHistory, NodeSample } from '../../../app/schemas/metrics';

export const DEFAULT_HISTORY_SECONDS = 3600;

const COLUMNS = ['opsPerSec', 'usedMemory', 'clients', 'inputKbps', 'outputKbps', 'lagBytes'] as const;
type Column = (typeof COLUMNS)[number];

/**
 * Why an entry holds no values: the node was down (polled, unreachable), slow (polled,
 * no answer in time on an open connection), or nothing was recorded from this entry's
 * time to the next (nobody polled: the profile was neither watched nor recorded).
 */
export type GapCause = 'down' | 'slow' | 'unrecorded';
const CAUSES: readonly (GapCause | null)[] = [null, 'down', 'unrecorded', 'slow'];
/** Set in an entry's cause byte when the node answered from a new server run: no byte more per entry. */
const RESTART_BIT = 0x80;

/** One poll's values for the charts; null where the node was down or the value does not apply. */
export type HistoryPoint = { at: number; gap?: GapCause | undefined; restarted?: boolean | undefined } & Record<Column, number | null>;

/** Entries needed to hold `historySeconds` of polls every `intervalMs`. */
export function historyCapacity(historySeconds: number, intervalMs: number): number {
  return Math.max(1, Math.ceil((historySeconds * 1000) / intervalMs));
}

/** The chart values of a sample; a down sample is all nulls, a gap rather than zeros. */
export function historyPoint(sample: NodeSample, lagBytes: number | null): HistoryPoint {
  if (!sample.up) {
    return {
      at: sample.at,
      gap: sample.status === 'slow' ? 'slow' : 'down',
      opsPerSec: null,
      usedMemory: null,
      clients: null,
      inputKbps: null,
      outputKbps: null,
      lagBytes: null,
    };
  }
  return {
    at: sample.at,
    ...(sample.restarted === true ? { restarted: true } : {}),
    opsPerSec: sample.traffic?.opsPerSec ?? null,
    usedMemory: sample.memory?.used ?? null,
    clients: sample.clients?.connected ?? null,
    inputKbps: sample.traffic?.inputKbps ?? null,
    outputKbps: sample.traffic?.outputKbps ?? null,
    lagBytes,
  };
}

/**
 * A node's recent polls, columnar in Float64Arrays allocated once: pushing past
 * capacity overwrites the oldest entry, so memory never grows with time. NaN
 * stands for null (INFO numbers are always finite; see infoNumber).
 */
export class HistoryRing {
  readonly capacity: number;
  private readonly at: Float64Array;
  /** Index into CAUSES (0 a recorded poll, 1 node down, 2 not recorded until the next entry, 3 slow), | RESTART_BIT. */
  private readonly gaps: Uint8Array;
  private readonly columns: Record<Column, Float64Array>;
  private start = 0;
  private size = 0;

  constructor(
    readonly address: string,
    capacity: number,
  ) {
    this.capacity = Math.max(1, Math.floor(capacity));
    this.at = new Float64Array(this.capacity);
    this.gaps = new Uint8Array(this.capacity);
    const columns: Partial<Record<Column, Float64Array>> = {};
    for (const c of COLUMNS) columns[c] = new Float64Array(this.capacity);
    this.columns = columns as Record<Column, Float64Array>;
  }

  get length(): number {
    return this.size;
  }

  push(p: HistoryPoint): void {
    const i = (this.start + this.size) % this.capacity;
    this.at[i] = p.at;
    this.gaps[i] = (p.gap === undefined ? 0 : CAUSES.indexOf(p.gap)) | (p.restarted === true ? RESTART_BIT : 0);
    for (const c of COLUMNS) this.columns[c][i] = p[c] ?? Number.NaN;
    if (this.size < this.capacity) this.size++;
    else this.start = (this.start + 1) % this.capacity;
  }

  /** Nobody polled from `at` until the next entry: a gap in every column, marked as not recorded. */
  pushGap(at: number): void {
    this.push({ at, gap: 'unrecorded', opsPerSec: null, usedMemory: null, clients: null, inputKbps: null, outputKbps: null, lagBytes: null });
  }

  /** The newest `capacity` entries in a new ring, for when the poll interval changes. */
  resized(capacity: number): HistoryRing {
    const next = new HistoryRing(this.address, capacity);
    for (let k = Math.max(0, this.size - next.capacity); k < this.size; k++) next.push(this.pointAt(k));
    return next;
  }

  toNodeHistory(): NodeHistory {
    const read = (arr: Float64Array): (number | null)[] => {
      const out = new Array<number | null>(this.size);
      for (let k = 0; k < this.size; k++) {
        const v = arr[(this.start + k) % this.capacity] ?? Number.NaN;
        out[k] = Number.isNaN(v) ? null : v;
      }
      return out;
    };
    const byte = (k: number): number => this.gaps[(this.start + k) % this.capacity] ?? 0;
    const gaps = Array.from({ length: this.size }, (_, k) => CAUSES[byte(k) & ~RESTART_BIT] ?? null);
    const at = Array.from({ length: this.size }, (_, k) => this.at[(this.start + k) % this.capacity] ?? 0);
    const restarts = at.filter((_, k) => (byte(k) & RESTART_BIT) !== 0);
    return {
      address: this.address,
      at,
      // Sent only when there is a gap or a restart to tell about: most histories have none.
      ...(gaps.some((g) => g !== null) ? { gaps } : {}),
      ...(restarts.length > 0 ? { restarts } : {}),
      opsPerSec: read(this.columns.opsPerSec),
      usedMemory: read(this.columns.usedMemory),
      clients: read(this.columns.clients),
      inputKbps: read(this.columns.inputKbps),
      outputKbps: read(this.columns.outputKbps),
      lagBytes: read(this.columns.lagBytes),
    };
  }

  private pointAt(k: number): HistoryPoint {
    const i = (this.start + k) % this.capacity;
    const v = (c: Column): number | null => {
      const x = this.columns[c][i] ?? Number.NaN;
      return Number.isNaN(x) ? null : x;
    };
    const byte = this.gaps[i] ?? 0;
    return {
      at: this.at[i] ?? 0,
      gap: CAUSES[byte & ~RESTART_BIT] ?? undefined,
      restarted: (byte & RESTART_BIT) !== 0,
      opsPerSec: v('opsPerSec'),
      usedMemory: v('usedMemory'),
      clients: v('clients'),
      inputKbps: v('inputKbps'),
      outputKbps: v('outputKbps'),
      lagBytes: v('lagBytes'),
    };
  }
}
