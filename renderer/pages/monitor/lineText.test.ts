import { describe, expect, it } from 'vitest';
import { argsText, argText, cellText, clockMs, gapText, haystack, highlightParts } from './lineText';
import type { LineRow } from './rows';

const at = (h: number, m: number, s: number, ms: number, us = 0) => new Date(2026, 0, 2, h, m, s, ms).getTime() + us / 1000;

describe('clockMs', () => {
  it('reads HH:MM:SS.mmm with the microseconds dropped, not rounded', () => {
    expect(clockMs(at(9, 5, 7, 42, 999))).toBe('09:05:07.042');
    expect(clockMs(at(23, 59, 59, 999, 999))).toBe('23:59:59.999');
    expect(clockMs(at(0, 0, 0, 0))).toBe('00:00:00.000');
  });
});

describe('argsText', () => {
  it('quotes only empty arguments and ones with a space; the server escapes the rest', () => {
    expect(argText('user:1')).toBe('user:1');
    expect(argText('a b')).toBe('"a b"');
    expect(argText('')).toBe('""');
    expect(argText('\\xff\\"q\\"')).toBe('\\xff\\"q\\"');
    expect(argsText({ args: ['k', 'hello world', ''], moreArgs: 0 })).toBe('k "hello world" ""');
  });

  it('says how many arguments were not kept', () => {
    expect(argsText({ args: ['a'], moreArgs: 12 })).toBe('a … +12 more');
  });

  it('cuts a cell to a bounded length', () => {
    expect(cellText('abc', 5)).toBe('abc');
    expect(cellText('x'.repeat(65_536), 400)).toHaveLength(400);
  });
});

describe('gapText', () => {
  it('names both times and the reason', () => {
    expect(gapText(at(10, 0, 1, 500), at(10, 0, 9, 0), 'connection closed')).toBe('— no lines from 10:00:01 to 10:00:09 (connection closed) —');
  });
});

describe('search text', () => {
  it('reads client, command and arguments, lower-cased, once', () => {
    const row: LineRow = {
      kind: 'line',
      seq: 0,
      line: { ts: 0, db: 0, client: '127.0.0.1:5000', command: 'SET', args: ['User:1', 'V'], moreArgs: 0, truncated: false },
    };
    expect(haystack(row)).toBe('127.0.0.1:5000 set user:1 v');
    row.line.args[0] = 'changed';
    expect(haystack(row)).toBe('127.0.0.1:5000 set user:1 v');
  });

  it('cuts text around every case-insensitive hit', () => {
    expect(highlightParts('Foo bar FOO', 'foo')).toEqual([
      { text: 'Foo', hit: true },
      { text: ' bar ', hit: false },
      { text: 'FOO', hit: true },
    ]);
    expect(highlightParts('abc', '')).toEqual([{ text: 'abc', hit: false }]);
    expect(highlightParts('abc', 'x')).toEqual([{ text: 'abc', hit: false }]);
  });
});
