import type { Redis } from 'ioredis';
import { AppError } from '../../../app/errors';
import type { Restriction } from '../../../app/schemas/restrictions';
import type { PoolApi } from '../pool/types';
import { toAppErrorFor } from '../pool/redisErrors';
import { readRefusal } from '../redis/refusal';

const PARAM = 'latency-monitor-threshold';

/** A temporary turn-on still running: what we set, what we put back, and when. */
export interface LatencyTimed {
  address: string;
  setMs: number;
  previousMs: number;
  until: number;
}

/** How the last temporary turn-on ended: put back, or left alone because someone else changed the value meanwhile. */
export interface LatencyEnded {
  address: string;
  at: number;
  restored: boolean;
  /** The value found at the end: ours put back as `previousMs`, or another one left in place. */
  foundMs: number | undefined;
  previousMs: number;
  /** The end could not read or put back the value (the node down, CONFIG refused meanwhile): it may still be on. */
  error?: string;
}

export interface LatencyStatus {
  /** Absent where CONFIG GET is refused: nobody can tell here whether the server records latency events. */
  thresholdMs?: number;
  restriction?: Restriction;
  timed?: LatencyTimed;
  ended?: LatencyEnded;
}

interface Running extends LatencyTimed {
  timer: NodeJS.Timeout;
}

async function readThreshold(redis: Redis): Promise<number | undefined> {
  const reply = (await redis.call('CONFIG', 'GET', PARAM)) as unknown;
  if (!Array.isArray(reply) || reply[1] === undefined) return undefined;
  const n = Number(reply[1]);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * latency-monitor-threshold turned on "for a while": the timer that puts the previous value back
 * lives here, in the core (at most one per connection, so the timers are bounded by the profiles),
 * not in a page that may close. If the process stops before the end, the setting stays on
 * (docs/monitoring.md). At the end the value is read again: one someone else set meanwhile is
 * left in place, and the panel says so.
 */
export class LatencyMonitor {
  private readonly running = new Map<string, Running>();
  private readonly ended = new Map<string, LatencyEnded>();

  constructor(
    private readonly pool: PoolApi,
    /** One "minute" of the duration; tests make it short. */
    private readonly minuteMs = 60_000,
  ) {}

  /** The node's threshold read on `readId` (an analyst's own connection), and the timer kept under `timerId` (the profile's). */
  async status(readId: string, timerId: string, address: string): Promise<LatencyStatus> {
    const redis = await this.pool.node(readId, address);
    const timed = this.running.get(timerId);
    const ended = this.ended.get(timerId);
    const extra = {
      ...(timed === undefined ? {} : { timed: { address: timed.address, setMs: timed.setMs, previousMs: timed.previousMs, until: timed.until } }),
      ...(ended === undefined ? {} : { ended }),
    };
    try {
      const thresholdMs = await readThreshold(redis);
      return { ...(thresholdMs === undefined ? {} : { thresholdMs }), ...extra };
    } catch (err) {
      const refusal = readRefusal(err, ['CONFIG', 'GET']);
      if (refusal === undefined) throw toAppErrorFor(redis, err);
      return { restriction: { command: refusal.command, effect: 'cannot tell whether latency monitoring is on' }, ...extra };
    }
  }

  /** Set the threshold on `address` for `minutes`, then put the value found before back. */
  async turnOn(connectionId: string, address: string, thresholdMs: number, minutes: number): Promise<LatencyTimed> {
    const current = this.running.get(connectionId);
    if (current !== undefined) {
      throw new AppError('CONFLICT', `Latency monitoring is already on for a while on ${current.address}: turn it off first.`, 'profileId');
    }
    const redis = await this.pool.node(connectionId, address);
    try {
      const previousMs = (await readThreshold(redis)) ?? 0;
      await redis.call('CONFIG', 'SET', PARAM, String(thresholdMs));
      const until = Date.now() + minutes * this.minuteMs;
      const timer = setTimeout(() => void this.restore(connectionId).catch(() => undefined), until - Date.now());
      // The timer must not keep a CLI process alive on its own.
      timer.unref();
      const run: Running = { address, setMs: thresholdMs, previousMs, until, timer };
      this.running.set(connectionId, run);
      this.ended.delete(connectionId);
      return { address, setMs: thresholdMs, previousMs, until };
    } catch (err) {
      throw toAppErrorFor(redis, err);
    }
  }

  /** End the turn-on now ("Turn off now"): the same check-then-put-back as at the end. */
  async turnOff(connectionId: string): Promise<LatencyEnded> {
    if (!this.running.has(connectionId)) throw new AppError('NOT_FOUND', 'Latency monitoring was not turned on for a while here.', 'profileId');
    return this.restore(connectionId);
  }

  private async restore(connectionId: string): Promise<LatencyEnded> {
    const run = this.running.get(connectionId);
    if (run === undefined) throw new AppError('NOT_FOUND', 'Latency monitoring was not turned on for a while here.', 'profileId');
    clearTimeout(run.timer);
    this.running.delete(connectionId);
    const redis = await this.pool.node(connectionId, run.address);
    const failed = (err: unknown): never => {
      const e = toAppErrorFor(redis, err);
      this.ended.set(connectionId, { address: run.address, at: Date.now(), restored: false, foundMs: undefined, previousMs: run.previousMs, error: e.message });
      throw e;
    };
    try {
      const foundMs = await readThreshold(redis);
      // Someone else's value (a CONFIG SET meanwhile) is theirs: never overwritten with ours.
      const restored = foundMs === run.setMs;
      if (restored) await redis.call('CONFIG', 'SET', PARAM, String(run.previousMs));
      const ended: LatencyEnded = { address: run.address, at: Date.now(), restored, foundMs, previousMs: run.previousMs };
      this.ended.set(connectionId, ended);
      return ended;
    } catch (err) {
      return failed(err);
    }
  }

  /** Stop the timers: what is on stays on (docs/monitoring.md). */
  shutdown(): void {
    for (const run of this.running.values()) clearTimeout(run.timer);
    this.running.clear();
  }
}
