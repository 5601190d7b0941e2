/** Characters per row of the text views: longer lines wrap onto further rows. */
export const LINE_CHARS = 160;

/**
 * Escaped text (the server's `\n`-escaped form) cut into display rows: a break after each
 * `\n` escape or real newline (the value's own lines) and every LINE_CHARS characters, never inside an
 * escape or a surrogate pair. Rows of equal height let the view render only what is in view.
 */
export function textRows(text: string, width = LINE_CHARS): string[] {
  const rows: string[] = [];
  let row = '';
  let len = 0;
  for (let i = 0; i < text.length; ) {
    let piece: string;
    if (text[i] === '\\') {
      const next = text[i + 1] ?? '';
      const size = next === 'x' ? 4 : next === 'u' ? 6 : 2;
      piece = text.slice(i, i + size);
    } else {
      const cp = text.codePointAt(i) as number;
      piece = String.fromCodePoint(cp);
    }
    i += piece.length;
    if (piece === '\n') {
      // A real newline (decoded text is pretty-printed): the row ends, the character is not drawn.
      rows.push(row);
      row = '';
      len = 0;
      continue;
    }
    if (len + piece.length > width && len > 0) {
      rows.push(row);
      row = '';
      len = 0;
    }
    row += piece;
    len += piece.length;
    if (piece === '\\n') {
      rows.push(row);
      row = '';
      len = 0;
    }
  }
  if (row !== '' || rows.length === 0) rows.push(row);
  return rows;
}
