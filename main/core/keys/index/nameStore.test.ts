import { describe, expect, it } from 'vitest';
import { NameStore } from './nameStore';

describe('NameStore', () => {
  it('gives back every name byte for byte: empty, binary, across chunk ends, longer than 64 KB and than a chunk', () => {
    const s = new NameStore();
    const names: Buffer[] = [Buffer.alloc(0), Buffer.from([0xff, 0x0d, 0x0a, 0x00])];
    for (let i = 0; i < 300_000; i++) names.push(Buffer.from(`user:${i}:${'x'.repeat(i % 40)}`));
    names.push(Buffer.alloc(70_000, 0x61), Buffer.alloc(9 * 1024 * 1024, 0x62), Buffer.from('after-the-big-one'));
    const ids = names.map((n) => {
      const framed = Buffer.concat([Buffer.from('<<'), n, Buffer.from('>>')]);
      return s.add(framed, 2, framed.length - 2);
    });
    expect(ids).toEqual(names.map((_, i) => i));
    for (const [i, n] of names.entries()) expect(s.name(i).equals(n)).toBe(true);
    expect(s.size).toBe(names.length);
    expect(s.bytes).toBeGreaterThan(names.reduce((a, n) => a + n.length, 0));
    s.drop();
    expect(s.size).toBe(0);
  });
});
