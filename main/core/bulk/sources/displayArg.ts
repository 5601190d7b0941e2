import { utf8SequenceLength } from './utf8';

/** Bytes of one argument shown in a preview; longer values are cut (a 100 MB value is not a preview). */
export const PREVIEW_ARG_BYTES = 256;

/**
 * One argument as redis-cli shows it: printable ASCII and well-formed UTF-8
 * as text, `\\` for a backslash, \n \r \t \a \b, and \xHH for any other byte
 * (control bytes, malformed UTF-8). Cut at PREVIEW_ARG_BYTES with a note of
 * how many bytes were left out.
 */
export function displayArg(buf: Buffer, start: number, end: number): string {
  const stop = Math.min(end, start + PREVIEW_ARG_BYTES);
  let out = '';
  let i = start;
  while (i < stop) {
    const b = buf[i] as number;
    if (b >= 0x20 && b < 0x7f) {
      out += b === 0x5c ? '\\\\' : String.fromCharCode(b);
      i++;
      continue;
    }
    if (b >= 0x80) {
      const len = utf8SequenceLength(buf, i, end);
      if (len > 0) {
        out += buf.toString('utf8', i, i + len);
        i += len;
        continue;
      }
    }
    const named = NAMED[b];
    out += named ?? `\\x${b.toString(16).padStart(2, '0')}`;
    i++;
  }
  if (end > stop) out += `… (+${end - stop} bytes)`;
  return out;
}

const NAMED: Record<number, string> = { 10: '\\n', 13: '\\r', 9: '\\t', 7: '\\a', 8: '\\b' };
