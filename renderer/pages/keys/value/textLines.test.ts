import { describe, expect, it } from 'vitest';
import { textRows } from './textLines';

describe('textRows', () => {
  it('breaks after each \\n escape and at the width, never inside an escape', () => {
    expect(textRows('ab\\ncd')).toEqual(['ab\\n', 'cd']);
    expect(textRows('abc\\xffd', 4)).toEqual(['abc', '\\xff', 'd']);
    expect(textRows('\\\\n')).toEqual(['\\\\n']);
  });
  it('ends a row at a real newline without drawing it, and keeps surrogate pairs whole', () => {
    expect(textRows('{\n  "a": 1\n}')).toEqual(['{', '  "a": 1', '}']);
    expect(textRows('a😀b', 2)).toEqual(['a', '😀', 'b']);
    expect(textRows('')).toEqual(['']);
  });
});
