import { utf8SequenceLength } from '../../text/utf8Sequence';

/**
 * Offset of the first byte of the first malformed UTF-8 sequence in
 * buf[start, end), or -1 when it is all well-formed. Well-formed is what
 * Redis clients and the UI can show as text: no overlong forms, no UTF-16
 * surrogates, nothing past U+10FFFF. ASCII, the common case, takes the
 * first loop only.
 */
export function invalidUtf8At(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  while (i < end) {
    if ((buf[i] as number) < 0x80) {
      i++;
      continue;
    }
    const len = utf8SequenceLength(buf, i, end);
    if (len === 0) return i;
    i += len;
  }
  return -1;
}

/**
 * 1-based column of `offset` on a line that starts at `lineStart`, counting
 * characters (UTF-8 lead bytes), which is what an editor shows; a malformed
 * byte counts as one column.
 */
export function columnOf(buf: Uint8Array, lineStart: number, offset: number): number {
  let col = 1;
  for (let i = lineStart; i < offset; i++) if (((buf[i] as number) & 0xc0) !== 0x80) col++;
  return col;
}

/**
 * Line and column of `offset`, scanning forward from `from`, a line start on
 * line `fromLine`: for errors inside records that span lines (CSV quoted
 * newlines). Only on the error path, so a plain scan is fine.
 */
export function locate(buf: Uint8Array, from: number, fromLine: number, offset: number): { line: number; column: number } {
  let line = fromLine;
  let lineStart = from;
  for (let i = from; i < offset; i++) {
    if (buf[i] === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: columnOf(buf, lineStart, offset) };
}

/** A byte for an error message: the character when printable ASCII, else \xHH. */
export function showByte(b: number | undefined): string {
  if (b === undefined) return 'end of input';
  if (b === 10) return "'\\n'";
  if (b === 13) return "'\\r'";
  if (b === 9) return "'\\t'";
  if (b >= 0x20 && b < 0x7f) return `'${String.fromCharCode(b)}'`;
  return `'\\x${b.toString(16).padStart(2, '0')}'`;
}
