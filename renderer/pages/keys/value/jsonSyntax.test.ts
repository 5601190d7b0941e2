import { describe, expect, it } from 'vitest';
import { jsonSyntaxError } from './jsonSyntax';

describe('jsonSyntaxError', () => {
  it.each(['{}', '[]', '0', '-1.5e+3', '"a\\u00e9\\n"', 'true', ' null ', '{"a":[1,{"b":[]}],"c":"d"}', '[[[[[]]]]]'])(
    'accepts %s as JSON.parse does',
    (text) => {
      expect(() => JSON.parse(text) as unknown).not.toThrow();
      expect(jsonSyntaxError(text)).toBeNull();
    },
  );

  it('names the line and column of the double comma (issue 29: "…50,, broken")', () => {
    const text = '{\n  "price": 50,, broken\n}';
    expect(jsonSyntaxError(text)).toEqual({
      offset: 16,
      line: 2,
      column: 15,
      message: 'Not valid JSON at line 2, column 15 (character 17): expected a property name in double quotes after the comma, found ","',
    });
  });

  it.each([
    ['', 0, 'a value'],
    ['{"a":1', 6, 'a comma or }'],
    ['[1,]', 3, 'a value'],
    ['{"a" 1}', 5, 'a colon'],
    ['01', 1, 'the end of the text'],
    ['"abc', 4, 'the closing quote'],
    ['"a\tb"', 2, 'a character allowed in a string'],
    ['{a:1}', 1, 'a property name'],
    ['[1] [2]', 4, 'the end of the text'],
    ["{'a':1}", 1, 'a property name'],
  ])('refuses %j at %i, expecting %s, as JSON.parse refuses it', (text, offset, expected) => {
    expect(() => JSON.parse(text) as unknown).toThrow();
    const e = jsonSyntaxError(text);
    expect(e?.offset).toBe(offset);
    expect(e?.message).toContain(`expected ${expected}`);
  });

  it('walks a deep document without overflowing the stack', () => {
    expect(jsonSyntaxError('['.repeat(100_000) + ']'.repeat(100_000))).toBeNull();
  });
});
