import { describe, expect, it } from 'vitest';
import { argText } from './argText';

describe('argText', () => {
  it('keeps printable text and UTF-8 as is', () => {
    expect(argText(Buffer.from('user:42 héllo'))).toBe('user:42 héllo');
  });

  it('escapes control characters and doubles backslashes', () => {
    expect(argText(Buffer.from('a\r\nb\\c\x00'))).toBe('a\\x0d\\x0ab\\\\c\\x00');
  });

  it('escapes every non-ASCII byte of invalid UTF-8 as \\xHH', () => {
    expect(argText(Buffer.from([0x41, 0xff, 0xfe, 0x42, 0xc3]))).toBe('A\\xff\\xfeB\\xc3');
  });
});
