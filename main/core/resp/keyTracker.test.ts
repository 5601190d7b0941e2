import { describe, expect, it } from 'vitest';
import { DistinctKeyTracker, fnv1a64 } from './keyTracker';

function addAll(t: DistinctKeyTracker, keys: (string | Buffer)[]): void {
  for (const k of keys) {
    const b = typeof k === 'string' ? Buffer.from(k) : k;
    t.add(b, 0, b.length);
  }
}

function referenceFnv1a64(bytes: Uint8Array): bigint {
  let h = 0xcbf29ce484222325n;
  for (const b of bytes) h = ((h ^ BigInt(b)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h;
}

describe('fnv1a64', () => {
  it('matches the published FNV-1a 64 vectors', () => {
    expect(fnv1a64(Buffer.from(''))).toBe(0xcbf29ce484222325n);
    expect(fnv1a64(Buffer.from('a'))).toBe(0xaf63dc4c8601ec8cn);
    expect(fnv1a64(Buffer.from('foobar'))).toBe(0x85944171f73967e8n);
  });

  it('agrees with a BigInt reference on random bytes and byte ranges', () => {
    let seed = 7;
    const rnd = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 24;
    for (let n = 0; n < 200; n++) {
      const buf = Buffer.from(Array.from({ length: n % 37 }, rnd));
      expect(fnv1a64(buf)).toBe(referenceFnv1a64(buf));
      if (buf.length > 4) expect(fnv1a64(buf, 2, buf.length - 1)).toBe(referenceFnv1a64(buf.subarray(2, buf.length - 1)));
    }
  });
});

describe('DistinctKeyTracker', () => {
  it('counts a key written twice once', () => {
    const t = new DistinctKeyTracker();
    addAll(t, ['a', 'b', 'a', 'c', 'b', 'a']);
    expect(t.count).toBe(3);
    expect(t.trackable).toBe(true);
  });

  it('says whether a key is new, so a census can skip one SCAN returned twice', () => {
    const t = new DistinctKeyTracker();
    const seen = ['a', 'b', 'a', 'c', 'b'].map((k) => t.add(Buffer.from(k), 0, k.length));
    expect(seen).toEqual([true, true, false, true, false]);
  });

  it('reads only the given byte range of a shared buffer', () => {
    const t = new DistinctKeyTracker();
    const buf = Buffer.from('xxuser:1yyuser:1zz');
    t.add(buf, 2, 8);
    t.add(buf, 10, 16);
    t.add(buf, 2, 7); // "user:"
    expect(t.count).toBe(2);
  });

  it('counts 300k distinct keys exactly, with duplicates, in about 16 bytes a key', () => {
    const t = new DistinctKeyTracker();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 300_000; i++) {
        const b = Buffer.from(`user:${i}`);
        t.add(b, 0, b.length);
      }
    }
    expect(t.count).toBe(300_000);
    expect((t.capacity * 8) / t.count).toBeLessThanOrEqual(16.1);
  });

  it('reserves room once for an expected count, keeps every key across it, and never shrinks', () => {
    const t = new DistinctKeyTracker();
    addAll(t, ['a', 'b', 'c']);
    t.reserve(100_000);
    const reserved = t.capacity;
    expect(reserved).toBeGreaterThanOrEqual(100_000 / 0.7);
    expect(t.add(Buffer.from('a'), 0, 1)).toBe(false);
    for (let i = 0; i < 100_000; i++) {
      const b = Buffer.from(`k:${i}`);
      t.add(b, 0, b.length);
    }
    // No growth on the way to the reserved count, and the count is exact.
    expect(t.capacity).toBe(reserved);
    expect(t.count).toBe(100_003);
    t.reserve(10);
    expect(t.capacity).toBe(reserved);
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

  it('becomes untrackable at the first untrackable command and remembers it', () => {
    const t = new DistinctKeyTracker();
    addAll(t, ['a', 'b']);
    t.untrackable('DEL');
    t.untrackable('RENAME');
    addAll(t, ['c']);
    expect(t.trackable).toBe(false);
    expect(t.untrackedBy).toBe('DEL');
    expect(t.capacity).toBe(0);
  });
});
