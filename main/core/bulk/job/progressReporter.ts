import { MAX_PROGRESS_REPLICAS, type LoadEvent } from '../../../../app/schemas/bulk';
import type { PipeProgress } from '../../resp/types';
import type { ReplicaLagSample } from './replicaLag';

type ProgressEvent = Extract<LoadEvent, { kind: 'progress' }>;

export interface ProgressReporterOptions {
  emit: (e: LoadEvent) => void;
  bytesTotal: number | undefined;
  /** Reads used_memory (INFO memory on the control connection); polled at most once per memoryEveryMs. */
  readMemory?: () => Promise<number>;
  /** Reads the master's replicas' lag (INFO replication on the control connection); polled like memory, one reading in flight. */
  readReplicas?: () => Promise<ReplicaLagSample>;
  /** Why replica lag cannot be read ("INFO refused"), said in every progress event instead. */
  replicasUnknown?: string;
  /** Called with each fresh used_memory reading and the progress it belongs with. */
  onMemory?: (used: number, p: PipeProgress) => void;
  minIntervalMs?: number;
  memoryEveryMs?: number;
  now?: () => number;
}

/** Replies in the last second or so, for a rate that follows the server, not the average. */
const RATE_WINDOW_MS = 1_000;

/**
 * Turns the pipe's progress callbacks (as many as it likes) into at most ten
 * progress events a second, with ops/s, ETA and the server's memory.
 */
export class ProgressReporter {
  private readonly emit: (e: LoadEvent) => void;
  private readonly minIntervalMs: number;
  private readonly memoryEveryMs: number;
  private readonly now: () => number;
  private readonly startedAt: number;
  private lastEmitAt = Number.NEGATIVE_INFINITY;
  private samples: { at: number; replies: number; rows: number }[] = [];
  private usedMemory: number | undefined;
  private lastPollAt = Number.NEGATIVE_INFINITY;
  private polling = false;
  private replicas: ReplicaLagSample | undefined;
  /** Per replica, the most it lagged in any reading: bounded by MAX_PROGRESS_REPLICAS, as a sample is. */
  private readonly peaks = new Map<string, { maxLagBytes: number; maxLagSeconds: number }>();
  /** The replica reading in flight (one at a time), for settleReplicas() to wait on. */
  private replicaRead: Promise<void> | undefined;
  private stopped = false;
  private latest: PipeProgress | undefined;
  private sentKey = '';

  constructor(private readonly opts: ProgressReporterOptions) {
    this.emit = opts.emit;
    this.minIntervalMs = opts.minIntervalMs ?? 100;
    this.memoryEveryMs = opts.memoryEveryMs ?? 1_000;
    this.now = opts.now ?? Date.now;
    this.startedAt = this.now();
  }

  /** Each replica's worst lag over the readings so far; undefined when none was read. */
  get replicaPeaks(): { addr: string; maxLagBytes: number; maxLagSeconds: number }[] | undefined {
    if (this.replicas === undefined) return undefined;
    return [...this.peaks].map(([addr, p]) => ({ addr, ...p }));
  }

  /** The last progress the pipe reported. */
  get last(): PipeProgress | undefined {
    return this.latest;
  }

  update(p: PipeProgress): void {
    if (this.stopped) return;
    this.latest = { ...p };
    const at = this.now();
    this.samples.push({ at, replies: p.replies, rows: rowsDone(p) });
    while (this.samples.length > 2 && (this.samples[0] as { at: number }).at < at - RATE_WINDOW_MS) this.samples.shift();
    this.pollServer(at);
    if (at - this.lastEmitAt < this.minIntervalMs) return;
    this.send(at, p);
  }

  /** Emit the latest progress now, whatever the throttle says (end of loading), then go quiet. */
  finish(p?: PipeProgress): void {
    if (this.stopped) return;
    const last = p ?? this.latest;
    if (last !== undefined && keyOf(last) !== this.sentKey) {
      this.latest = { ...last };
      this.send(this.now(), last);
    }
    this.stopped = true;
  }

  private send(at: number, p: PipeProgress): void {
    this.lastEmitAt = at;
    this.sentKey = keyOf(p);
    const e: ProgressEvent = {
      kind: 'progress',
      at,
      records: p.records,
      commands: p.commands,
      replies: p.replies,
      errors: p.errors,
      bytesRead: p.bytesRead,
      opsPerSec: this.rate(at, p.replies, 'replies'),
      recordsPerSec: this.rate(at, rowsDone(p), 'rows'),
    };
    const total = this.opts.bytesTotal;
    if (total !== undefined) {
      e.bytesTotal = total;
      const elapsed = (at - this.startedAt) / 1000;
      if (p.bytesRead > 0 && elapsed > 0) e.etaSeconds = Math.max(0, (elapsed * (total - p.bytesRead)) / p.bytesRead);
    }
    if (this.usedMemory !== undefined) e.usedMemory = this.usedMemory;
    if (this.replicas !== undefined) {
      e.replicas = this.replicas.replicas;
      if (this.replicas.more > 0) e.replicasMore = this.replicas.more;
    }
    if (this.opts.replicasUnknown !== undefined) e.replicasUnknown = this.opts.replicasUnknown;
    this.emit(e);
  }

  /** Per second over the last RATE_WINDOW_MS (since the start until a window's worth is kept). */
  private rate(at: number, value: number, of: 'replies' | 'rows'): number {
    const first = this.samples[0];
    if (first === undefined || at - first.at <= 0) {
      const elapsed = (at - this.startedAt) / 1000;
      return elapsed > 0 ? Math.round(value / elapsed) : 0;
    }
    return Math.round(((value - first[of]) * 1000) / (at - first.at));
  }

  private pollServer(at: number): void {
    const read = this.opts.readMemory;
    if (this.polling || this.replicaRead !== undefined || at - this.lastPollAt < this.memoryEveryMs) return;
    this.lastPollAt = at;
    this.pollReplicas();
    if (read === undefined) return;
    this.polling = true;
    read().then(
      (used) => {
        this.polling = false;
        if (this.stopped) return;
        this.usedMemory = used;
        if (this.latest !== undefined) this.opts.onMemory?.(used, this.latest);
      },
      () => {
        // A missed reading only leaves usedMemory stale; the load itself reports connection loss.
        this.polling = false;
      },
    );
  }

  /**
   * The replicas' lag at the end of the load, into the peaks: waits for the reading in flight,
   * and takes one when none was ever taken (a load quicker than the first reading still says
   * how far behind it left each replica). Bounded by `waitMs`: a lost server does not hold the
   * report.
   */
  async settleReplicas(waitMs = 2_000): Promise<void> {
    if (this.opts.readReplicas === undefined) return;
    const reading = this.replicaRead ?? (this.replicas === undefined ? this.pollReplicas() : undefined);
    if (reading === undefined) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([reading, new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
    clearTimeout(timer);
  }

  /** Same pace as memory; a failed reading keeps the last one (a refusal is known before: replicasUnknown). */
  private pollReplicas(): Promise<void> | undefined {
    const read = this.opts.readReplicas;
    if (read === undefined) return undefined;
    const reading = read().then(
      (sample) => {
        this.replicaRead = undefined;
        // A reading that lands after the last progress event still counts for the peaks.
        for (const r of sample.replicas) {
          const peak = this.peaks.get(r.addr);
          if (peak === undefined && this.peaks.size >= MAX_PROGRESS_REPLICAS) continue;
          this.peaks.set(r.addr, {
            maxLagBytes: Math.max(peak?.maxLagBytes ?? 0, r.lagBytes),
            maxLagSeconds: Math.max(peak?.maxLagSeconds ?? 0, r.lagSeconds),
          });
        }
        if (this.stopped && this.replicas !== undefined) return;
        this.replicas = sample;
      },
      () => {
        this.replicaRead = undefined;
      },
    );
    this.replicaRead = reading;
    return reading;
  }
}

function keyOf(p: PipeProgress): string {
  return `${p.records}/${p.commands}/${p.replies}/${p.errors}/${p.bytesRead}`;
}

/**
 * Input rows Redis has answered for: one command can carry many rows (an MSET of 64, an HSET
 * of a key's rows), so rows answered ≈ replies × rows per command, which is exact at the end.
 */
function rowsDone(p: PipeProgress): number {
  return p.commands > 0 ? Math.round((p.replies * p.records) / p.commands) : 0;
}
