import { describe, expect, it } from 'vitest';
import { newKeyRecord } from './rdbParser';
import { SnapshotTally, TTL_BUCKETS } from './snapshotTally';
import { TopKeys } from './topKeys';

/** A small deterministic generator (mulberry32): the same "random" keyspace every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TYPES = ['string', 'list', 'set', 'zset', 'hash'] as const;

describe('TopKeys', () => {
  it('keeps exactly the largest `limit` sizes of many, largest first, whatever the order they come in', () => {
    const next = rng(7);
    const sizes = Array.from({ length: 5_000 }, () => Math.floor(next() * 1_000_000));
    const top = new TopKeys(100);
    sizes.forEach((size, i) => top.add({ db: 0, key: Buffer.from(`k${i}`), type: 'string', encoding: 'raw', size, length: 0, valueBytes: size }));
    expect(top.sorted().map((e) => e.size)).toEqual([...sizes].sort((a, b) => b - a).slice(0, 100));
    expect(new TopKeys(0).wants(1)).toBe(false);
  });
});

describe('SnapshotTally', () => {
  it('counts keys per DB, type and encoding, TTLs by bucket (expired apart), and copies the top keys out of a reused record', () => {
    const now = 1_800_000_000_000;
    const next = rng(42);
    const tally = new SnapshotTally({ now, top: 10 });
    // The parser's way: one record object, its key a view of a buffer that is overwritten.
    const scratch = Buffer.alloc(32);
    const rec = newKeyRecord();
    rec.key = scratch;
    const want = {
      keys: 0,
      expires: 0,
      expired: 0,
      none: 0,
      byDb: new Map<number, number>(),
      byType: new Map<string, number>(),
      buckets: TTL_BUCKETS.map(() => 0),
    };
    const all: { name: string; bytes: number; length: number }[] = [];
    for (let i = 0; i < 3_000; i++) {
      const name = `key:${i}`;
      const n = scratch.write(name);
      rec.key = scratch.subarray(0, n);
      rec.db = i % 3;
      rec.type = TYPES[i % TYPES.length] as (typeof TYPES)[number];
      rec.encoding = i % 2 === 0 ? 'listpack' : 'hashtable';
      rec.valueBytes = Math.floor(next() * 100_000);
      rec.serializedBytes = rec.valueBytes + 10;
      rec.length = Math.floor(next() * 5_000);
      const ttl = i % 4 === 0 ? null : Math.floor((next() - 0.1) * 40 * 86_400_000);
      rec.expiresAt = ttl === null ? null : now + ttl;
      tally.key(rec);
      scratch.fill(0x21);
      all.push({ name, bytes: rec.valueBytes, length: rec.length });
      want.keys++;
      want.byDb.set(rec.db, (want.byDb.get(rec.db) ?? 0) + 1);
      want.byType.set(rec.type, (want.byType.get(rec.type) ?? 0) + 1);
      if (ttl === null) want.none++;
      else {
        want.expires++;
        if (ttl <= 0) want.expired++;
        else want.buckets[TTL_BUCKETS.findIndex((b) => ttl < b.below)]!++;
      }
    }
    const r = tally.result();
    expect(r.keys).toBe(want.keys);
    expect(r.expires).toBe(want.expires);
    expect(Object.fromEntries(Object.entries(r.dbs).map(([db, c]) => [db, c.keys]))).toEqual(
      Object.fromEntries([...want.byDb].map(([db, n]) => [String(db), n])),
    );
    expect(Object.fromEntries(Object.entries(r.types).map(([t, c]) => [t, c.keys]))).toEqual(Object.fromEntries(want.byType));
    expect(Object.values(r.types).reduce((a, t) => a + (t.encodings['listpack'] ?? 0) + (t.encodings['hashtable'] ?? 0), 0)).toBe(want.keys);
    expect(r.ttl.none).toBe(want.none);
    expect(r.ttl.expired).toBe(want.expired);
    expect(want.expired).toBeGreaterThan(0);
    expect(r.ttl.buckets.map((b) => b.keys)).toEqual(want.buckets);
    // The names are whole although the buffer they were read from was overwritten after each key.
    const biggest = [...all].sort((a, b) => b.bytes - a.bytes).slice(0, 10);
    expect(r.topByBytes.map((e) => [e.key.toString(), e.size])).toEqual(biggest.map((e) => [e.name, e.bytes]));
    const longest = [...all].sort((a, b) => b.length - a.length).slice(0, 10);
    expect(r.topByLength.map((e) => e.size)).toEqual(longest.map((e) => e.length));
    expect(r.topByLength.every((e) => /^key:\d+$/.test(e.key.toString()))).toBe(true);
  });
});
