import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HashDeduper } from './distinctHashes';
import { hashKey, lastHash } from './keyHash';
import { DistinctKeyTracker, type TrackerOptions } from './keyTracker';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A tracker spilling into a fresh directory, so a test can look at what is left in it. */
function spilling(opts: TrackerOptions = {}): { t: DistinctKeyTracker; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cb-key-tracker-'));
  dirs.push(dir);
  return { t: new DistinctKeyTracker({ dir, ...opts }), dir };
}

function addAll(t: DistinctKeyTracker, keys: (string | Buffer)[]): void {
  for (const k of keys) {
    const b = typeof k === 'string' ? Buffer.from(k) : k;
    t.add(b, 0, b.length);
  }
}

describe('DistinctKeyTracker', () => {
  it('counts a key written twice once', () => {
    const t = new DistinctKeyTracker();
    addAll(t, ['a', 'b', 'a', 'c', 'b', 'a']);
    expect(t.count).toBe(3);
    expect(t.trackable).toBe(true);
  });

  it('reads only the given byte range of a shared buffer', () => {
    const t = new DistinctKeyTracker();
    const buf = Buffer.from('xxuser:1yyuser:1zz');
    t.add(buf, 2, 8);
    t.add(buf, 10, 16);
    t.add(buf, 2, 7); // "user:"
    expect(t.count).toBe(2);
  });

  it('tells binary keys apart, including ones that differ only in a zero byte or their length', () => {
    const t = new DistinctKeyTracker();
    addAll(t, [
      Buffer.from([0]),
      Buffer.from([0, 0]),
      Buffer.from([0, 0, 0]),
      Buffer.from([0xff, 0x00, 0x10]),
      Buffer.from([0xff, 0x00, 0x11]),
      Buffer.from([0xff, 0x00, 0x10]),
      Buffer.alloc(0),
      Buffer.alloc(0),
    ]);
    expect(t.count).toBe(6);
  });

  it('counts 300k distinct keys written twice exactly in fixed memory, the rest in a spill file no directory lists', () => {
    // 256 partitions x 256 hashes: 512 KB of buffers, so 600k hashes must spill.
    const { t, dir } = spilling({ blockHashes: 256 });
    const memory = t.bytesInMemory;
    expect(memory).toBe(256 * 256 * 8);
    for (let round = 0; round < 2; round++) for (let i = 0; i < 300_000; i++) addAll(t, [`user:${i}`]);
    expect(t.bytesInMemory).toBe(memory);
    expect(t.bytesOnDisk).toBeGreaterThan(400_000 * 8);
    expect(readdirSync(dir)).toEqual([]);
    expect(t.count).toBe(300_000);
    addAll(t, ['user:1', 'one more']);
    expect(t.count).toBe(300_001);
    t.close();
    expect(t.bytesOnDisk).toBe(0);
  });

  it('keeps a key written again and again near 8 bytes a distinct key on disk, not 8 bytes a write', () => {
    const { t } = spilling({ partitionBits: 2, blockHashes: 64, minDedupeBlocks: 4 });
    for (let round = 0; round < 100; round++) for (let i = 0; i < 1000; i++) addAll(t, [`counter:${i}`]);
    expect(t.count).toBe(1000);
    // 100,000 writes would be 800 kB; a partition is deduplicated once it doubles.
    expect(t.bytesOnDisk).toBeLessThanOrEqual(2 * (1000 * 8 + 4 * 64 * 8));
  });

  it('fails with the directory and TMPDIR named when the spill file cannot be written', () => {
    const dir = join(tmpdir(), 'cb-key-tracker-missing', 'nowhere');
    const t = new DistinctKeyTracker({ dir, partitionBits: 1, blockHashes: 16 });
    expect(() => {
      for (let i = 0; i < 100; i++) addAll(t, [`k${i}`]);
    }).toThrow(/Could not create a file in .*cb-key-tracker-missing\/nowhere to count the keys written .*TMPDIR/);
  });

  it('becomes untrackable at the first untrackable command, remembers it, and gives its memory and disk back', () => {
    const { t } = spilling({ blockHashes: 16 });
    for (let i = 0; i < 20_000; i++) addAll(t, [`k${i}`]);
    expect(t.bytesOnDisk).toBeGreaterThan(0);
    t.untrackable('DEL');
    t.untrackable('RENAME');
    addAll(t, ['c']);
    expect(t.trackable).toBe(false);
    expect(t.untrackedBy).toBe('DEL');
    expect(t.bytesInMemory).toBe(0);
    expect(t.bytesOnDisk).toBe(0);
  });
});

describe('HashDeduper', () => {
  it('keeps the same distinct hashes by hash table and by sorting, past the table limit', () => {
    const n = 50_000;
    const pairs = new Uint32Array(2 * n);
    for (let i = 0; i < n; i++) {
      const key = Buffer.from(`key:${i % 30_011}`);
      hashKey(key, 0, key.length);
      pairs[2 * i] = lastHash.hi;
      pairs[2 * i + 1] = lastHash.lo;
    }
    const hashed = pairs.slice();
    const sorted = pairs.slice();
    const a = new HashDeduper().dedupe(hashed, n);
    const b = new HashDeduper(1000).dedupe(sorted, n);
    expect(a).toBe(30_011);
    expect(b).toBe(30_011);
    const set = (p: Uint32Array, k: number) => new Set(Array.from({ length: k }, (_, i) => `${p[2 * i]}/${p[2 * i + 1]}`));
    expect(set(sorted, b)).toEqual(set(hashed, a));
    // The hash table keeps the first of each in input order.
    expect([hashed[0], hashed[1]]).toEqual([pairs[0], pairs[1]]);
  });
});
