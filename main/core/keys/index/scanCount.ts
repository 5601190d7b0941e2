import { encodeCommand } from '../../resp/encodeCommand';
import type { RawTarget } from '../../resp/rawTarget';
import { ReplyError } from '../../resp/replyReader';
import { RespPipe } from '../../resp/respPipe';
import { readRefusal } from '../../redis/refusal';

/** Redis' default `slowlog-log-slower-than` (µs), assumed where CONFIG GET is refused. */
export const DEFAULT_SLOWLOG_US = 10_000;
/** The smallest COUNT asked: SCAN walks at least one bucket per call whatever the COUNT. */
export const MIN_COUNT = 10;
/**
 * Server time a SCAN costs per key it asks for, at most (µs): the first COUNT, before any call
 * was measured. ~0.6 on an idle server; 5 on a busy 2-core machine sharing its CPU.
 */
const FIRST_GUESS_US_PER_KEY = 5;
/** One SCAN aims at this share of the threshold, so a spike of three times its usual time is still not logged. */
const AIM = 0.3;
/** Calls in a row well under the aim before COUNT grows: a growth step is the only way to cross the line, so it is slow. */
const CALM_CALLS = 4;

/** The node's slowlog threshold as the index reads it: null when the slowlog is off (negative). */
export interface SlowlogLimit {
  /** µs; null: the slowlog is off on this node (a negative threshold), COUNT is not held down for it. */
  us: number | null;
  /** CONFIG GET was refused (ACL, a managed service): the default 10 ms is assumed. */
  assumed: boolean;
}

/**
 * `slowlog-log-slower-than` of the node behind `target`, read with CONFIG GET over a connection
 * of its own (closed at once); where CONFIG is refused, the default 10 ms, said to be assumed.
 */
export async function readSlowlogLimit(target: RawTarget): Promise<SlowlogLimit> {
  const pipe = new RespPipe(await target.connect(), target.errorContext, 'while reading slowlog-log-slower-than; nothing was changed on the server.');
  try {
    const [reply] = await pipe.send(encodeCommand(['CONFIG', 'GET', 'slowlog-log-slower-than']), 1, true);
    if (reply instanceof ReplyError) {
      if (readRefusal(new Error(reply.message), ['CONFIG', 'GET']) !== undefined) return { us: DEFAULT_SLOWLOG_US, assumed: true };
      throw pipe.errorOf(reply);
    }
    const value = Array.isArray(reply) ? Number(String(reply[1])) : NaN;
    if (!Number.isFinite(value)) return { us: DEFAULT_SLOWLOG_US, assumed: true };
    return { us: value < 0 ? null : value, assumed: false };
  } finally {
    await pipe.close().catch(() => pipe.destroy());
  }
}

/**
 * SCAN COUNT for one node, kept so that one SCAN stays under the node's slowlog threshold: the
 * index's own SCANs never fill the SLOWLOG. Each call's time is measured from send to reply
 * (more than the server spent on it: the network and this process's own delays are in it, so
 * the COUNT errs small). A call past the aim halves the COUNT at once; it grows by a quarter
 * only after CALM_CALLS calls under half the aim, up to `maxCount` (the pacer's batch).
 */
export class ScanCount {
  private count: number;
  private calm = 0;
  /** The largest COUNT used, and the slowest call seen (ms), for the index state. */
  largest = 0;
  slowestMs = 0;

  constructor(
    readonly limit: SlowlogLimit,
    private readonly maxCount: number,
  ) {
    const us = limit.us;
    this.count = us === null ? maxCount : clamp(Math.floor((us * AIM) / FIRST_GUESS_US_PER_KEY), maxCount);
  }

  /** The COUNT of the next call (never past `cap`: the pacer's batch now). */
  next(cap: number): number {
    const c = Math.max(MIN_COUNT, Math.min(this.count, cap));
    if (c > this.largest) this.largest = c;
    return c;
  }

  /** One call of COUNT `count` took `ms` from send to reply. */
  observe(count: number, ms: number): void {
    if (ms > this.slowestMs) this.slowestMs = ms;
    const us = this.limit.us;
    if (us === null) return;
    const aimMs = (us * AIM) / 1000;
    if (ms > aimMs) {
      this.count = clamp(Math.floor(count / 2), this.maxCount);
      this.calm = 0;
      return;
    }
    if (ms > aimMs / 2 || count < this.count) {
      this.calm = 0;
      return;
    }
    if (++this.calm < CALM_CALLS) return;
    this.calm = 0;
    this.count = clamp(Math.ceil(this.count * 1.25), this.maxCount);
  }
}

function clamp(n: number, max: number): number {
  return Math.max(MIN_COUNT, Math.min(max, n));
}
