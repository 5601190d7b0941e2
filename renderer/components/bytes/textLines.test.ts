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

describe('textRows on a long line', () => {
  it('keeps every character, in order, and cuts no escape', () => {
    const text = 'ab\\\\\\xffc\\u202e'.repeat(500);
    const rows = textRows(text, 7);
    expect(rows.join('')).toBe(text);
    for (const r of rows) expect(r.length).toBeLessThanOrEqual(7);
    for (const r of rows) expect(/\\(?:x.?$|u.{0,3}$)/.test(r.replace(/\\\\/g, ''))).toBe(false);
  });
});
