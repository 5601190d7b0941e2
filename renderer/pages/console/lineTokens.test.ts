import { describe, expect, it } from 'vitest';
import { caretIn, commandLines, lineAt, tokens } from './lineTokens';

describe('tokens: the words of a line as typed', () => {
  it('splits on spaces, and takes quoted words whole with their escapes of quotes and backslashes', () => {
    expect(tokens('SET  "a b" \'c\\\'d\' x"y z"').map((t) => t.text)).toEqual(['SET', 'a b', "c'd", 'xy z']);
  });

  it('runs an open quote to the end of the line rather than failing', () => {
    const t = tokens('SET "half open');
    expect(t.map((x) => [x.text, x.closed])).toEqual([
      ['SET', true],
      ['half open', false],
    ]);
  });
});

describe('caretIn: the word the caret is typing', () => {
  it('is the word the caret ends, or a new one after a space', () => {
    expect(caretIn('hse', 3)).toMatchObject({ before: [], current: { text: 'hse', start: 0, end: 3 } });
    const after = caretIn('HSET ', 5);
    expect(after.before.map((t) => t.text)).toEqual(['HSET']);
    expect(after.current).toEqual({ text: '', start: 5, end: 5 });
  });

  it('looks only before the caret, and says when the caret is inside quotes', () => {
    expect(caretIn('CONFIG GE key', 9).current).toEqual({ text: 'GE', start: 7, end: 9 });
    expect(caretIn('SET "ab', 7).quoted).toBe(true);
  });
});

describe('lineAt and commandLines', () => {
  it('finds the caret line of a multi-line input, and which of how many it is', () => {
    const text = 'GET a\nHSET h f v\nPING';
    expect(lineAt(text, 8)).toEqual({ line: 'HSET h f v', offset: 6, index: 1, count: 3 });
    expect(lineAt(text, 0).index).toBe(0);
    expect(lineAt(text, text.length)).toMatchObject({ line: 'PING', index: 2 });
  });

  it('runs one command a line, skipping blank ones', () => {
    expect(commandLines('  GET a \n\n   \nPING\n')).toEqual(['GET a', 'PING']);
  });
});
