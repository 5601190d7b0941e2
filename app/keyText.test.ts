import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64, EscapeError, parseEscaped } from './keyText';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('parseEscaped', () => {
  it('reads redis-cli escapes into the bytes they stand for', () => {
    expect(hex(parseEscaped('a\\xff\\r\\n\\t\\\\\\"b'))).toBe(Buffer.from([0x61, 0xff, 13, 10, 9, 0x5c, 0x22, 0x62]).toString('hex'));
  });
  it('keeps typed UTF-8 and reads \\u escapes of invisible characters', () => {
    expect(Buffer.from(parseEscaped('é\\u202e😀')).toString('utf8')).toBe('é\u202e😀');
  });
  it('names the position of a bad escape', () => {
    for (const [text, pos] of [
      ['ab\\q', 3],
      ['\\x4', 1],
      ['x\\', 2],
      ['\\u12', 1],
    ] as const) {
      try {
        parseEscaped(text);
        expect.fail(`${text} was accepted`);
      } catch (e) {
        expect(e).toBeInstanceOf(EscapeError);
        expect((e as EscapeError).position).toBe(pos);
      }
    }
  });
});

describe('base64', () => {
  it('round-trips every byte value and a long buffer', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    expect(hex(base64ToBytes(bytesToBase64(all)))).toBe(hex(all));
    const long = Uint8Array.from({ length: 200_000 }, (_, i) => (i * 31) & 0xff);
    expect(bytesToBase64(long)).toBe(Buffer.from(long).toString('base64'));
  });
});
