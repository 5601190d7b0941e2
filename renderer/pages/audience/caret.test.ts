import { describe, expect, it } from 'vitest';
import { caretLine } from './caret';

describe('caretLine', () => {
  it('puts the caret under the offending character', () => {
    const c = caretLine('gender=f AND (region=NE', 23);
    expect(c).toEqual({ text: 'gender=f AND (region=NE', caret: 23, line: 1, column: 24 });
    const bad = caretLine('gender=f AND $x', 13);
    expect(bad.text[bad.caret]).toBe('$');
    expect(bad.column).toBe(14);
  });

  it('shows only the line of a multi-line expression, numbering lines and columns from 1', () => {
    const text = 'gender=f\nAND age=\nOR x=1';
    const c = caretLine(text, text.indexOf('age=') + 4);
    expect(c).toEqual({ text: 'AND age=', caret: 8, line: 2, column: 9 });
    expect(caretLine(text, 0)).toMatchObject({ text: 'gender=f', caret: 0, line: 1 });
  });

  it('counts an emoji as one character and a tab as one space', () => {
    const c = caretLine('x="😀" AND\t)', 11);
    expect(c.text).toBe('x="😀" AND )');
    expect(Array.from(c.text)[c.caret]).toBe(')');
  });

  it('cuts a long line to a window around the caret', () => {
    const text = `${'a=1 AND '.repeat(30)}$ AND ${'b=2 AND '.repeat(30)}c=3`;
    const at = text.indexOf('$');
    const c = caretLine(text, at, 40);
    expect(c.text.startsWith('…')).toBe(true);
    expect(c.text.endsWith('…')).toBe(true);
    expect(Array.from(c.text).length).toBe(42);
    expect(c.text[c.caret]).toBe('$');
    expect(c.column).toBe(at + 1);
  });

  it('clamps a position past either end', () => {
    expect(caretLine('a=', 99)).toMatchObject({ caret: 2, column: 3 });
    expect(caretLine('a=', -4)).toMatchObject({ caret: 0, column: 1 });
    expect(caretLine('', 0)).toMatchObject({ text: '', caret: 0 });
  });
});
