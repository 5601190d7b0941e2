import { describe, expect, it } from 'vitest';
import { KeyHashSet } from './keyHashSet';

const add = (s: KeyHashSet, k: string): boolean => s.add(Buffer.from(k), 0, Buffer.byteLength(k));

describe('KeyHashSet', () => {
  it('says whether a key is new, so a census can skip one SCAN returned twice', () => {
    const s = new KeyHashSet();
    expect(['a', 'b', 'a', 'c', 'b'].map((k) => add(s, k))).toEqual([true, true, false, true, false]);
    expect(s.count).toBe(3);
  });

  it('counts 300k distinct keys exactly, with duplicates, in about 16 bytes a key', () => {
    const s = new KeyHashSet();
    for (let round = 0; round < 2; round++) for (let i = 0; i < 300_000; i++) add(s, `user:${i}`);
    expect(s.count).toBe(300_000);
    expect((s.capacity * 8) / s.count).toBeLessThanOrEqual(16.1);
  });

  it('reserves room once for an expected count, keeps every key across it, and never shrinks', () => {
    const s = new KeyHashSet();
    for (const k of ['a', 'b', 'c']) add(s, k);
    s.reserve(100_000);
    const reserved = s.capacity;
    expect(reserved).toBeGreaterThanOrEqual(100_000 / 0.7);
    expect(add(s, 'a')).toBe(false);
    for (let i = 0; i < 100_000; i++) add(s, `k:${i}`);
    // No growth on the way to the reserved count, and the count is exact.
    expect(s.capacity).toBe(reserved);
    expect(s.count).toBe(100_003);
    s.reserve(10);
    expect(s.capacity).toBe(reserved);
  });
});
