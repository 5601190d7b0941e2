/**
 * The words of a line as it is being typed, for autocomplete only: the server parses what
 * runs (with the bulk command files' parser), this only has to know which word the caret is
 * in. So it is tolerant: an open quote runs to the end of the line, and a bad escape is
 * taken as it stands. Quoting follows redis-cli's: "…" with backslash escapes, '…' with \'.
 */
export interface Token {
  /** The word without its quotes (escapes undone only for \" \' and \\: enough to match names). */
  text: string;
  start: number;
  end: number;
}

export interface Caret {
  /** The whole words before the caret's word. */
  before: Token[];
  /** The word the caret ends: a new, empty one after a space. */
  current: Token;
  /** The caret is inside a quoted word: no completion (a value, not a name). */
  quoted: boolean;
}

const SPACE = /[ \t\r\n\v\f]/;

/** Every word of `line`, tolerating an unclosed quote. */
export function tokens(line: string): (Token & { quoted: boolean; closed: boolean })[] {
  const out: (Token & { quoted: boolean; closed: boolean })[] = [];
  let i = 0;
  while (i < line.length) {
    while (i < line.length && SPACE.test(line.charAt(i))) i++;
    if (i >= line.length) break;
    const start = i;
    let text = '';
    let quote = '';
    let quoted = false;
    let closed = true;
    for (; i < line.length; i++) {
      const c = line.charAt(i);
      if (quote === '') {
        if (SPACE.test(c)) break;
        if (c === '"' || c === "'") {
          quote = c;
          quoted = true;
          closed = false;
        } else text += c;
        continue;
      }
      if (c === '\\' && i + 1 < line.length) {
        const e = line.charAt(i + 1);
        if (e === quote || e === '\\') {
          text += e;
          i++;
          continue;
        }
      }
      if (c === quote) {
        quote = '';
        closed = true;
        continue;
      }
      text += c;
    }
    out.push({ text, start, end: i, quoted, closed });
  }
  return out;
}

/** The words before the caret at `at` in `line`, and the one it is in (or starts). */
export function caretIn(line: string, at: number): Caret {
  const all = tokens(line.slice(0, at));
  const last = all.at(-1);
  // The caret right after a word (no space yet, or inside an open quote) is typing that word.
  if (last !== undefined && last.end === at) {
    return { before: all.slice(0, -1), current: { text: last.text, start: last.start, end: last.end }, quoted: last.quoted };
  }
  return { before: all, current: { text: '', start: at, end: at }, quoted: false };
}

/** The line the caret is on, and where that line starts in the whole text. */
export function lineAt(text: string, caret: number): { line: string; offset: number; index: number; count: number } {
  const offset = text.lastIndexOf('\n', caret - 1) + 1;
  const endAt = text.indexOf('\n', caret);
  const line = text.slice(offset, endAt === -1 ? text.length : endAt);
  const index = text.slice(0, offset).split('\n').length - 1;
  return { line, offset, index, count: text.split('\n').length };
}

/** The command lines of the input: one per line, blank lines skipped, surrounding spaces trimmed. */
export function commandLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}
