import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** The share of each type in the generated keyspace, by key index modulo 100. */
function typeOf(i: number): 'string' | 'hash' | 'set' | 'zset' | 'list' {
  const m = i % 100;
  if (m < 80) return 'string';
  if (m < 88) return 'hash';
  if (m < 93) return 'set';
  if (m < 97) return 'zset';
  return 'list';
}

function bulk(s: string): string {
  return `$${Buffer.byteLength(s)}\r\n${s}\r\n`;
}

function command(args: string[]): string {
  return `*${args.length}\r\n${args.map(bulk).join('')}`;
}

/**
 * One record's commands: mostly strings (session:, user:, cache:) with some
 * hashes, sets, zsets and lists, TTLs on sessions and cache pages, a few big
 * aggregates (hashtable, skiplist encodings). Deterministic in `i`.
 */
function recordFor(i: number): string {
  const t = typeOf(i);
  let key: string;
  let out: string;
  if (t === 'string') {
    const kind = i % 3;
    key = kind === 0 ? `session:${i.toString(16)}` : kind === 1 ? `user:${i}:name` : `cache:page:${i}`;
    // Integers, short (embstr) and long (raw) strings.
    const value = i % 7 === 0 ? String(i) : 'v'.repeat(10 + (i % 5) * 20);
    out = command(['SET', key, value]);
    if (kind === 0) out += command(['EXPIRE', key, String(600 + (i % 86_400))]);
    else if (kind === 2) out += command(['EXPIRE', key, String(600 + (i % 3_000))]);
  } else {
    // 20 keys in every 10,000 (0.2%) are big enough for hashtable and skiplist encodings.
    const big = i % 10_000 >= 80 && i % 10_000 < 100;
    const n = big ? 300 : 2 + (i % 9);
    const args: string[] = [];
    if (t === 'hash') {
      key = `user:${i}:profile`;
      for (let k = 0; k < n; k++) args.push(`f${k}`, `value${k}`);
      out = command(['HSET', key, ...args]);
    } else if (t === 'set') {
      key = `cart:${i}:items`;
      for (let k = 0; k < n; k++) args.push(i % 2 === 0 ? String(k) : `sku-${k}`);
      out = command(['SADD', key, ...args]);
    } else if (t === 'zset') {
      key = `leaderboard:${i}`;
      for (let k = 0; k < n; k++) args.push(String(k), `player${k}`);
      out = command(['ZADD', key, ...args]);
    } else {
      key = `queue:${i}:jobs`;
      for (let k = 0; k < n; k++) args.push(`job${k}`);
      out = command(['RPUSH', key, ...args]);
    }
  }
  return out;
}

/** Writes the RESP that builds an n-key mixed keyspace, for `redis-cli --pipe`. */
export async function writeSamplingData(path: string, n: number): Promise<void> {
  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  let buf = '';
  for (let i = 0; i < n; i++) {
    buf += recordFor(i);
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'finish');
}
