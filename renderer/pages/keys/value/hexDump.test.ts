import { describe, expect, it } from 'vitest';
import { hexLine, hexLineCount } from './hexDump';

describe('hexLine', () => {
  it('prints offset, two groups of eight bytes and the printable ASCII, dots for the rest', () => {
    const bytes = Uint8Array.from([0x48, 0x69, 0xff, 0x0d, 0x0a, ...Array.from({ length: 13 }, (_, i) => 0x41 + i)]);
    expect(hexLineCount(bytes.length)).toBe(2);
    const first = hexLine(bytes, 0);
    expect(first.offset).toBe('00000000');
    expect(first.hex).toBe('48 69 ff 0d 0a 41 42 43  44 45 46 47 48 49 4a 4b');
    expect(first.ascii).toBe('Hi...ABCDEFGHIJK');
    const last = hexLine(bytes, 1);
    expect(last.offset).toBe('00000010');
    expect(last.hex).toBe('4c 4d');
    expect(last.ascii).toBe('LM');
  });
});
