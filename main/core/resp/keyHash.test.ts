import { describe, expect, it } from 'vitest';
import { fnv1a64 } from './keyHash';

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
