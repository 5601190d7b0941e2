import type { MonitorLine } from '../../../app/schemas/monitor';
import { Ring } from './ring';

/**
 * Commands that never reach a replica's stream: skipped on both sides so they
 * do not fill the pending sets. Anything else may be a write; one that is not
 * just ages out unmatched.
 */
const NOT_REPLICATED = new Set([
  'GET', 'MGET', 'GETRANGE', 'STRLEN', 'EXISTS', 'TYPE', 'TTL', 'PTTL', 'EXPIRETIME', 'PEXPIRETIME', 'DBSIZE',
  'HGET', 'HMGET', 'HGETALL', 'HKEYS', 'HVALS', 'HLEN', 'HEXISTS', 'HSTRLEN', 'HSCAN', 'HRANDFIELD',
  'LRANGE', 'LINDEX', 'LLEN', 'LPOS', 'SMEMBERS', 'SISMEMBER', 'SMISMEMBER', 'SCARD', 'SSCAN', 'SRANDMEMBER',
  'SINTER', 'SUNION', 'SDIFF', 'SINTERCARD', 'ZRANGE', 'ZRANGEBYSCORE', 'ZREVRANGE', 'ZREVRANGEBYSCORE', 'ZRANK',
  'ZREVRANK', 'ZSCORE', 'ZMSCORE', 'ZCARD', 'ZCOUNT', 'ZLEXCOUNT', 'ZSCAN', 'ZRANDMEMBER', 'XRANGE', 'XREVRANGE',
  'XLEN', 'XINFO', 'XREAD', 'XPENDING', 'BITCOUNT', 'BITPOS', 'GETBIT', 'PFCOUNT', 'GEOPOS', 'GEODIST', 'GEOSEARCH',
  'SCAN', 'KEYS', 'RANDOMKEY', 'INFO', 'PING', 'ECHO', 'CLIENT', 'CONFIG', 'COMMAND', 'SLOWLOG', 'LATENCY',
  'MEMORY', 'OBJECT', 'ROLE', 'TIME', 'LASTSAVE', 'DUMP', 'AUTH', 'HELLO', 'SELECT', 'WATCH', 'UNWATCH', 'MULTI',
  'EXEC', 'DISCARD', 'SUBSCRIBE', 'PSUBSCRIBE', 'UNSUBSCRIBE', 'PUNSUBSCRIBE', 'PUBSUB', 'REPLCONF', 'WAIT',
]);

export type Side = 'master' | 'replica';

interface Pending {
  key: string;
  ts: number;
  done: boolean;
}

/** One side's writes waiting for their copy: by key, in time order, and all of them in one bounded FIFO. */
class PendingWrites {
  private readonly byKey = new Map<string, Pending[]>();
  private readonly fifo: Ring<Pending>;

  constructor(capacity: number) {
    this.fifo = new Ring<Pending>(capacity);
  }

  add(key: string, ts: number): void {
    const p: Pending = { key, ts, done: false };
    this.forget(this.fifo.push(p));
    const list = this.byKey.get(key);
    if (list === undefined) this.byKey.set(key, [p]);
    else list.push(p);
  }

  /**
   * The entry to pair with, chosen by `pick` over the key's entries (oldest
   * first); it and every entry before it leave: an older unpaired copy of the
   * same write lost its partner (dropped on the way) and would only ever pair wrong.
   */
  take(key: string, pick: (list: readonly Pending[]) => number): Pending | undefined {
    const list = this.byKey.get(key);
    if (list === undefined) return undefined;
    const i = pick(list);
    if (i < 0) return undefined;
    const gone = list.splice(0, i + 1);
    for (const p of gone) p.done = true;
    if (list.length === 0) this.byKey.delete(key);
    return gone[i];
  }

  expire(before: number): void {
    while ((this.fifo.at(0)?.ts ?? Infinity) < before) this.forget(this.fifo.shift());
  }

  get size(): number {
    let n = 0;
    for (const l of this.byKey.values()) n += l.length;
    return n;
  }

  private forget(p: Pending | undefined): void {
    if (p === undefined || p.done) return;
    p.done = true;
    const list = this.byKey.get(p.key);
    if (list === undefined) return;
    // The evicted entry is the oldest of all, so it heads its key's list.
    const i = list.indexOf(p);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.byKey.delete(p.key);
  }
}

export interface MatcherOptions {
  /** Writes held per side while their copy has not arrived. */
  capacity?: number;
  /** Writes older than the newest seen minus this are given up. */
  maxAgeMs?: number;
  /** Clocks of two hosts differ: a copy may read up to this much before its write. */
  skewMs?: number;
}

/**
 * Pairs a write seen on the master with the same command, arguments and DB seen
 * on one replica, whichever stream delivers it first, and returns the delay
 * (replica time minus master time, both server clocks). A copy pairs with the
 * latest master write at or before it, so a repeated write (INCR of one key)
 * pairs with its own copy and a lost line costs one pair, not every later one.
 * Writes the master rewrites before propagating (SET … EX becomes PXAT) never pair.
 */
export class WriteMatcher {
  private readonly pending: Record<Side, PendingWrites>;
  private readonly maxAgeMs: number;
  private readonly skewMs: number;
  private newest = -Infinity;

  constructor(opts: MatcherOptions = {}) {
    const capacity = opts.capacity ?? 5000;
    this.pending = { master: new PendingWrites(capacity), replica: new PendingWrites(capacity) };
    this.maxAgeMs = opts.maxAgeMs ?? 10_000;
    this.skewMs = opts.skewMs ?? 100;
  }

  /** The delay in ms when this line completes a pair. */
  add(side: Side, line: MonitorLine): number | undefined {
    if (NOT_REPLICATED.has(line.command) || line.truncated || line.moreArgs > 0) return undefined;
    if (line.ts > this.newest) {
      this.newest = line.ts;
      this.pending.master.expire(line.ts - this.maxAgeMs);
      this.pending.replica.expire(line.ts - this.maxAgeMs);
    }
    const key = `${line.db} ${line.command} ${line.args.join('\u0000')}`;
    const ts = line.ts;
    const skew = this.skewMs;
    if (side === 'replica') {
      // The latest master write at or before this copy; across a clock skew, the first one.
      const hit = this.pending.master.take(key, (l) => {
        const i = l.findLastIndex((p) => p.ts <= ts);
        return i >= 0 || (l[0]?.ts ?? Infinity) > ts + skew ? i : 0;
      });
      if (hit !== undefined) return ts - hit.ts;
    } else {
      // The first copy at or after this write (earlier ones belong to writes already gone); across a clock skew, the last one.
      const hit = this.pending.replica.take(key, (l) => {
        const i = l.findIndex((p) => p.ts >= ts);
        return i >= 0 || (l.at(-1)?.ts ?? -Infinity) < ts - skew ? i : l.length - 1;
      });
      if (hit !== undefined) return hit.ts - ts;
    }
    this.pending[side].add(key, ts);
    return undefined;
  }

  /** Writes waiting for their copy, per side (for tests). */
  sizes(): Record<Side, number> {
    return { master: this.pending.master.size, replica: this.pending.replica.size };
  }
}

export interface DelaySummary {
  latest: number;
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
      p50: sorted[Math.floor((sorted.length - 1) / 2)] ?? latest,
      max: sorted.at(-1) ?? latest,
      window: sorted.length,
      pairs: this.pairs,
    };
  }
}
