/** Characters per row of the text views: longer lines wrap onto further rows. */
export const LINE_CHARS = 160;

/** Whether the backslash at `i` starts an escape (an odd run of backslashes ends there). */
function startsEscape(text: string, i: number): boolean {
  let run = 0;
  for (let j = i; j >= 0 && text.charCodeAt(j) === 0x5c; j--) run++;
  return run % 2 === 1;
}

function escapeSize(text: string, i: number): number {
  const next = text[i + 1];
  return next === 'x' ? 4 : next === 'u' ? 6 : 2;
}

/** A cut at `c` moved back so it falls neither inside an escape nor between a surrogate pair. */
function safeCut(text: string, start: number, c: number): number {
  // An escape is at most 6 characters (\uHHHH): only one starting in the 5 before `c` can span it.
  for (let k = Math.max(start + 1, c - 5); k < c; k++) {
    if (text.charCodeAt(k) === 0x5c && startsEscape(text, k) && k + escapeSize(text, k) > c) return k;
  }
  const code = text.charCodeAt(c - 1);
  return code >= 0xd800 && code <= 0xdbff && c - 1 > start ? c - 1 : c;
}

/** One line (no real newline in it) cut after each `\n` escape and every `width` characters. */
function pushLine(rows: string[], line: string, width: number): void {
  let start = 0;
  let from = 0;
  const ends: number[] = [];
  for (let i = line.indexOf('\\n', from); i !== -1; i = line.indexOf('\\n', from)) {
    if (startsEscape(line, i)) ends.push(i + 2);
    from = i + 2;
  }
  ends.push(line.length);
  for (const end of ends) {
    if (end === start && end === line.length && end !== 0) break;
    while (end - start > width) {
      const c = safeCut(line, start, start + width);
      rows.push(line.slice(start, c));
      start = c;
    }
    rows.push(line.slice(start, end));
    start = end;
  }
}

/**
 * Escaped text (the server's `\n`-escaped form, or decoded text with real newlines) cut into
 * display rows: a break at each real newline (not drawn), after each `\n` escape, and every
 * `width` characters, never inside an escape or a surrogate pair. Native string search only:
 * a megabyte of text is cut in a few milliseconds. Rows of equal height let the view render
 * only what is in view.
 */
export function textRows(text: string, width = LINE_CHARS): string[] {
  const rows: string[] = [];
  for (const line of text.split('\n')) pushLine(rows, line, width);
  return rows;
}
