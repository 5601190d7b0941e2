import { describe, expect, it } from 'vitest';
import { Crc64 } from './crc64';

describe('crc64 (Redis crc64.c: Jones polynomial, reflected)', () => {
  it('gives the check value Redis tests for, e9c6d914c4b8d9ca, over "123456789"', () => {
    const crc = new Crc64();
    crc.update(Buffer.from('123456789'));
    expect(crc.hex()).toBe('e9c6d914c4b8d9ca');
  });

  it('gives the same value fed in pieces of any size as in one piece', () => {
    const data = Buffer.from(Array.from({ length: 1000 }, (_, i) => (i * 131 + 7) & 0xff));
    const whole = new Crc64();
    whole.update(data);
    for (const step of [1, 3, 8, 13, 999]) {
      const pieces = new Crc64();
      for (let i = 0; i < data.length; i += step) pieces.update(data, i, Math.min(i + step, data.length));
      expect(pieces.hex(), `pieces of ${step}`).toBe(whole.hex());
    }
  });
});
