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
 * Length of the well-formed multi-byte UTF-8 sequence starting at buf[i]
 * (2 to 4), or 0 when it is malformed or cut off by `end`.
 */
export function utf8SequenceLength(buf: Uint8Array, i: number, end: number): number {
  const b = buf[i] as number;
  let need: number;
  let min = 0x80;
  let max = 0xbf;
  if (b >= 0xc2 && b <= 0xdf) {
    need = 1;
  } else if (b >= 0xe0 && b <= 0xef) {
    need = 2;
    if (b === 0xe0) min = 0xa0; // below would be overlong
    if (b === 0xed) max = 0x9f; // above would be a UTF-16 surrogate
  } else if (b >= 0xf0 && b <= 0xf4) {
    need = 3;
    if (b === 0xf0) min = 0x90; // below would be overlong
    if (b === 0xf4) max = 0x8f; // above would pass U+10FFFF
  } else {
    return 0;
  }
  if (i + need >= end) return 0;
  const b1 = buf[i + 1] as number;
  if (b1 < min || b1 > max) return 0;
  for (let k = 2; k <= need; k++) {
    const c = buf[i + k] as number;
    if (c < 0x80 || c > 0xbf) return 0;
  }
  return need + 1;
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
