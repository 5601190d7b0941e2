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

describe('hexLine at 8 bytes a line', () => {
  it('counts lines and offsets by the width asked', () => {
    const bytes = Uint8Array.from({ length: 20 }, (_, i) => 0x30 + i);
    expect(hexLineCount(bytes.length, 8)).toBe(3);
    expect(hexLine(bytes, 1, 8)).toEqual({ offset: '00000008', hex: '38 39 3a 3b 3c 3d 3e 3f', ascii: '89:;<=>?' });
  });
});
