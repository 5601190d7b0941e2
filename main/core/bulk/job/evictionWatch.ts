import { formatBytes } from './preflight';
import { readKeyCounters, type ServerFacts } from './serverFacts';
import type { Redis } from 'ioredis';

/**
 * How often INFO stats is read during a load. A pipelined load writes tens of
 * thousands of keys in that time, so it is short; an INFO stats is a few
 * hundred bytes and microseconds of server time.
 */
export const EVICTION_POLL_MS = 25;
const FINAL_READ_MS = 2_000;

/**
 * The pipe's bound on commands sent but not answered, where Redis may evict
 * (250,000 otherwise). The watch runs on the loader's event loop: while it is
 * busy encoding, the server works through the commands already sent, and each
 * of them may evict. A short window keeps how far the server can run ahead of
 * the last reading to a few milliseconds of work, and makes the pipe wait (and
 * the watch run) often; 10,000 in flight still keeps a server busy.
 */
export const EVICTING_IN_FLIGHT = 10_000;

/**
 * Watches INFO stats evicted_keys while a load runs and fires `signal` at the
 * first key evicted. The counter is server-wide and INFO does not say which DB
 * a key was evicted from, so any eviction counts: under an allkeys-* policy it
 * may be a key of the live DB or of any other (LRU/LFU pick the coldest keys,
 * which are the live ones, not the load's fresh writes); under volatile-* any
 * key with a TTL, in any DB. `evictedSince()` reads how many keys were evicted
 * since the load began; a failed reading is skipped (the load itself reports
 * a lost connection).
 */
export class EvictionWatch {
  private readonly abort = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private reading = false;
  private seen = 0;

  /**
   * `onEviction` runs once, when the first eviction is seen: the loader kills
   * its data connection there (CLIENT KILL ID), because the pipelined commands
   * already on the server would otherwise go on executing, and evicting, until
   * the abort has travelled through the pipe.
   */
  constructor(
    private readonly evictedSince: () => Promise<number>,
    private readonly onEviction: () => void = () => undefined,
    private readonly everyMs = EVICTION_POLL_MS,
  ) {}

  /** Fires at the first eviction seen. */
  get signal(): AbortSignal {
    return this.abort.signal;
  }

  /** Keys evicted since the start, as last read. */
  get evicted(): number {
    return this.seen;
  }

  start(): this {
    this.timer = setInterval(() => void this.poll(), this.everyMs);
    this.timer.unref();
    return this;
  }

  /**
   * Stops polling and takes one last reading, so an eviction at the very end
   * is not missed; a server that does not answer within FINAL_READ_MS (hung,
   * or the connection lost) does not hold the report up.
   */
  async stop(): Promise<number> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FINAL_READ_MS);
    });
    await Promise.race([this.poll(true), late]).finally(() => clearTimeout(timer));
    return this.seen;
  }

  private async poll(final = false): Promise<void> {
    if (this.reading && !final) return;
    this.reading = true;
    try {
      this.seen = Math.max(this.seen, await this.evictedSince());
      if (this.seen > 0 && !this.abort.signal.aborted) {
        this.abort.abort();
        this.onEviction();
      }
    } catch {
      // A missed reading: the next one (or the final one) catches up, the counter only grows.
    } finally {
      this.reading = false;
    }
  }
}

/** INFO stats evicted_keys of one server. */
export async function evictedKeys(redis: Redis): Promise<number> {
  return (await readKeyCounters(redis)).evicted;
}

/** The sentence a failed report starts with when the watch stopped the load. */
export function evictionMessage(evicted: number, facts: Pick<ServerFacts, 'maxmemory' | 'maxmemoryPolicy'>, where: string): string {
  return (
    `Redis evicted ${evicted} key${evicted === 1 ? '' : 's'} during the load${where} (maxmemory ${formatBytes(facts.maxmemory)}, maxmemory-policy ${facts.maxmemoryPolicy || 'unknown'}): ` +
    'the load stopped at the first eviction, since Redis does not say which DB an evicted key was in and it may be live data'
  );
}
