import { describe, expect, it } from 'vitest';
import { crc16, keySlot, slotOf } from './slot';

describe('slot', () => {
  it('computes CRC16/XMODEM as the Redis Cluster spec gives it', () => {
    expect(crc16(Buffer.from('123456789'))).toBe(0x31c3);
    expect(crc16(Buffer.alloc(0))).toBe(0);
  });

  it('hashes only the first non-empty hash tag', () => {
    expect(slotOf('{user1000}.following')).toBe(slotOf('{user1000}.followers'));
    expect(slotOf('{user1000}.following')).toBe(slotOf('user1000'));
    // The first '{' is followed at once by '}': no tag, the whole key is hashed.
    expect(slotOf('foo{}{bar}')).toBe(crc16(Buffer.from('foo{}{bar}')) % 16384);
    expect(slotOf('foo{{bar}}zap')).toBe(slotOf('{bar'));
    expect(slotOf('foo{bar}{zap}')).toBe(slotOf('bar'));
    expect(slotOf('no}tag{here')).toBe(crc16(Buffer.from('no}tag{here')) % 16384);
  });

  it('reads a key inside a larger buffer', () => {
    const buf = Buffer.from('xx{a}bxx');
    expect(keySlot(buf, 2, 6)).toBe(slotOf('a'));
    // A '}' past the key's end does not close its tag.
    expect(keySlot(Buffer.from('k{ab}'), 0, 4)).toBe(slotOf('k{ab'));
  });
});
