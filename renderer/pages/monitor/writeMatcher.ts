import type { MonitorLine } from '../../../app/schemas/monitor';
import { replicates } from '../../../app/redis/commands';
import { Ring } from '../../lib/ring';

export type Side = 'master' | 'replica';

/** The longest replication delay measured by default. */
export const MAX_DELAY_MS = 3_000;

interface Write {
  key: string;
  ts: number;
  /** Arrival order on the master's stream. */
  seq: number;
}

export interface MatcherOptions {
  /** Writes held per side while their copy has not arrived. */
  capacity?: number;
  /**
   * The longest delay measured. A copy pairs only with a write at most this much
   * older; a replica further behind gets no figure rather than a wrong one.
   */
  maxDelayMs?: number;
}

/**
 * Pairs each write a replica applied (its MONITOR line) with the same write on
 * the master, and returns the delay: replica time minus master time, both server
 * clocks (the same clock for nodes on one host).
 *
 * Content alone cannot pair them: live traffic repeats writes (INCR of one key,
 * SET of a value already set), and a copy paired with the latest identical
 * write before it reads ~0 however far behind the replica is, while a copy
 * paired with a later write reads negative. What does identify a write is its
 * place in the stream: a replica applies the master's writes in the master's
 * order. So the matcher first waits for an anchor (a copy with exactly one
 * candidate write in the last `maxDelayMs`, once the master's stream has been
 * open that long, so the true write cannot have been missed), then walks both
 * streams in order: each next copy pairs with the earliest unpaired identical
 * write after the previous pair. A copy never pairs with a write stamped after
 * it, so no delay is negative. Lines lost on either side (a slow viewer, 1 in N)
 * break the order: `resync()` drops the anchor until a new one is found.
 */
export class WriteMatcher {
  private readonly capacity: number;
  private readonly maxDelayMs: number;
  /** Master writes by content, oldest first; only those after `pointer` may still pair. */
  private readonly byKey = new Map<string, Write[]>();
  private readonly fifo: Write[] = [];
  private fifoHead = 0;
  /** Replica copies waiting for the master's stream to catch up to them. */
  private readonly waiting: Write[] = [];
  private seq = 0;
  /** seq of the master write of the last pair; -1 before an anchor. */
  private pointer = -1;
  private anchored = false;
  private masterFirst = Infinity;
  private masterNewest = -Infinity;
  private replicaNewest = -Infinity;
  /** Copies up to this time have every master line they could pair with (see masterHeartbeat). */
  private heardUpTo = -Infinity;
  private waitingMark = -Infinity;

  constructor(opts: MatcherOptions = {}) {
    this.capacity = opts.capacity ?? 20_000;
    this.maxDelayMs = opts.maxDelayMs ?? MAX_DELAY_MS;
  }

  /** The delays (ms) of the pairs this line completes, oldest first; usually none or one. */
  add(side: Side, line: MonitorLine): number[] {
    // Any line, a read too, tells how far the master's stream has come.
    if (side === 'master') {
      this.masterFirst = Math.min(this.masterFirst, line.ts);
      this.masterNewest = Math.max(this.masterNewest, line.ts);
    }
    // Commands that never reach a replica's stream are skipped on both sides, so they do not fill the
    // pending sets. Anything else may be a write; one that is not just ages out unmatched.
    if (!replicates(line.command) || line.truncated || line.moreArgs > 0) return this.drain();
    const key = `${line.db} ${line.command} ${line.args.join('\u0000')}`;
    if (side === 'master') {
      const w: Write = { key, ts: line.ts, seq: this.seq++ };
      this.fifo.push(w);
      const list = this.byKey.get(key);
      if (list === undefined) this.byKey.set(key, [w]);
      else list.push(w);
      if (this.fifo.length - this.fifoHead > this.capacity) this.forgetOldest();
    } else {
      this.replicaNewest = Math.max(this.replicaNewest, line.ts);
      this.waiting.push({ key, ts: line.ts, seq: -1 });
      if (this.waiting.length > this.capacity) {
        this.waiting.shift();
        this.resync();
      }
    }
    return this.drain();
  }

  /**
   * The master's stream sent its once-a-second stats: everything the master ran
   * before the previous heartbeat has been delivered (lines go out every 50 ms),
   * so copies that were waiting then can be decided even when the master went quiet.
   */
  masterHeartbeat(): number[] {
    this.heardUpTo = this.waitingMark;
    this.waitingMark = this.waiting.at(-1)?.ts ?? this.replicaNewest;
    return this.drain();
  }

  /** Lines were lost on one side: the streams' order no longer lines up until a new anchor. */
  resync(): void {
    this.anchored = false;
  }

  /** Writes waiting for their copy, and copies waiting for the master's stream (for tests). */
  sizes(): Record<Side, number> {
    return { master: this.fifo.length - this.fifoHead, replica: this.waiting.length };
  }

  /** Whether the streams are lined up (pairs are being made). */
  get synced(): boolean {
    return this.anchored;
  }

  private drain(): number[] {
    const out: number[] = [];
    while (this.waiting.length > 0) {
      const copy = this.waiting[0] as Write;
      // Every master line up to the copy's time is in: its stream is in time order.
      const complete = this.masterNewest >= copy.ts || copy.ts <= this.heardUpTo;
      const givenUp = copy.ts < this.replicaNewest - this.maxDelayMs;
      this.expire(copy.ts - this.maxDelayMs);
      const hit = this.anchored ? this.next(copy) : complete ? this.anchor(copy) : undefined;
      if (hit === undefined && !complete && !givenUp) break;
      this.waiting.shift();
      if (hit === undefined) {
        // The master's stream stalled past the longest delay: what it sends later could pair out of order.
        if (givenUp && !complete) this.resync();
        continue;
      }
      this.pointer = hit.seq;
      this.anchored = true;
      const list = this.byKey.get(hit.key);
      if (list !== undefined) list.splice(0, list.indexOf(hit) + 1);
      out.push(copy.ts - hit.ts);
    }
    return out;
  }

  /** In step: the earliest identical write after the last pair, not stamped after the copy. */
  private next(copy: Write): Write | undefined {
    const list = this.byKey.get(copy.key);
    if (list === undefined) return undefined;
    return list.find((w) => w.seq > this.pointer && w.ts <= copy.ts);
  }

  /** Out of step: a copy with exactly one candidate write, from a master stream open long enough. */
  private anchor(copy: Write): Write | undefined {
    if (copy.ts - this.maxDelayMs < this.masterFirst) return undefined;
    const list = this.byKey.get(copy.key) ?? [];
    const candidates = list.filter((w) => w.seq > this.pointer && w.ts <= copy.ts && w.ts >= copy.ts - this.maxDelayMs);
    return candidates.length === 1 ? candidates[0] : undefined;
  }

  /** Master writes older than `before` can pair with no copy still to come. */
  private expire(before: number): void {
    while (this.fifoHead < this.fifo.length && (this.fifo[this.fifoHead] as Write).ts < before) this.forgetOldest();
  }

  private forgetOldest(): void {
    const w = this.fifo[this.fifoHead];
    if (w === undefined) return;
    this.fifo[this.fifoHead] = undefined as unknown as Write;
    this.fifoHead++;
    if (this.fifoHead > 1024 && this.fifoHead * 2 > this.fifo.length) {
      this.fifo.splice(0, this.fifoHead);
      this.fifoHead = 0;
    }
    const list = this.byKey.get(w.key);
    if (list === undefined) return;
    // The oldest write of all heads its content's list, unless a pair already took it out.
    if (list[0] === w) list.shift();
    if (list.length === 0) this.byKey.delete(w.key);
  }
}

export interface DelaySummary {
  latest: number;
  min: number;
  p50: number;
  max: number;
  /** Delays in the window the p50 and max are over. */
  window: number;
  /** Pairs since the watch started. */
  pairs: number;
}

/** The last `size` replication delays: latest, median and max. */
export class DelayWindow {
  private readonly ring: Ring<number>;
  private pairs = 0;

  constructor(size = 200) {
    this.ring = new Ring<number>(size);
  }

  push(ms: number): void {
    this.ring.push(ms);
    this.pairs++;
  }

  summary(): DelaySummary | undefined {
    const values = this.ring.toArray();
    const latest = values.at(-1);
    if (latest === undefined) return undefined;
    const sorted = values.sort((a, b) => a - b);
    return {
      latest,
      min: sorted[0] ?? latest,
      p50: sorted[Math.floor((sorted.length - 1) / 2)] ?? latest,
      max: sorted.at(-1) ?? latest,
      window: sorted.length,
      pairs: this.pairs,
    };
  }
}
