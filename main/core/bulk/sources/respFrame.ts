import { showByte } from './utf8';

export const NEED_MORE = -1;
export const MALFORMED = -2;

const STAR = 42;
const DOLLAR = 36;
const CR = 13;
const LF = 10;
/** Redis's default proto-max-bulk-len: a longer argument would be refused anyway. */
const MAX_BULK = 512 * 1024 * 1024;
const MAX_DIGITS = 10;
/** Payloads from this length are searched for newlines with indexOf rather than a JS loop. */
const NATIVE_SCAN = 32;

/** One command's framing as scanCommand found it. */
export class CommandFrame {
  argc = 0;
  argStart = new Int32Array(16);
  argEnd = new Int32Array(16);
  /** `\n` bytes in the command, framing and payloads alike: how far the line number moves. */
  newlines = 0;
  /** Why and where (offset) the command is malformed, after MALFORMED. */
  error = '';
  errorAt = 0;

  /** Argument i's bytes are buf[argStart[i], argEnd[i]). */
  setArg(i: number, start: number, end: number): void {
    if (i === this.argStart.length) {
      const s = new Int32Array(2 * i);
      const e = new Int32Array(2 * i);
      s.set(this.argStart);
      e.set(this.argEnd);
      this.argStart = s;
      this.argEnd = e;
    }
    this.argStart[i] = start;
    this.argEnd[i] = end;
  }
}

// readLength's result besides the offset it returns: module state, so no object per call.
let lengthValue = 0;

/**
 * Check the framing of the command at buf[pos] — an array of bulk strings,
 * `*N\r\n` then N times `$len\r\n<len bytes>\r\n`, what redis-cli --pipe
 * sends — and record where its arguments are. Returns the offset just past
 * it, NEED_MORE when buf ends inside it, or MALFORMED with frame.error set.
 * Payloads are binary: only the declared length says where they end.
 */
export function scanCommand(buf: Buffer, pos: number, end: number, f: CommandFrame): number {
  if (pos >= end) return NEED_MORE;
  if (buf[pos] !== STAR) return malformed(f, pos, `expected '*' at the start of a command, got ${showByte(buf[pos])}`);
  let p = readLength(buf, pos + 1, end, f, 'argument count');
  if (p < 0) return p;
  const argc = lengthValue;
  if (argc === 0) return malformed(f, pos + 1, 'a command needs at least one argument, got *0');
  let newlines = 1;
  for (let k = 0; k < argc; k++) {
    if (p >= end) return NEED_MORE;
    if (buf[p] !== DOLLAR) {
      return malformed(f, p, `expected '$' followed by a length (argument ${k + 1} of ${argc}), got ${showByte(buf[p])}`);
    }
    p = readLength(buf, p + 1, end, f, 'bulk length');
    if (p < 0) return p;
    newlines++;
    const len = lengthValue;
    const e = p + len;
    if (e + 2 > end) return NEED_MORE;
    if (buf[e] !== CR || buf[e + 1] !== LF) return badPayloadEnd(buf, p, len, f);
    if (len < NATIVE_SCAN) {
      for (let i = p; i < e; i++) if (buf[i] === LF) newlines++;
    } else {
      // memchr is several times faster than a JS loop on values; buf[e + 1] is LF, so it stops there.
      for (let i = buf.indexOf(LF, p); i >= 0 && i < e; i = buf.indexOf(LF, i + 1)) newlines++;
    }
    newlines++;
    f.setArg(k, p, e);
    p = e + 2;
  }
  f.argc = argc;
  f.newlines = newlines;
  return p;
}

/** Digits then CRLF, from p; sets lengthValue and returns the offset after the LF. */
function readLength(buf: Buffer, p: number, end: number, f: CommandFrame, what: string): number {
  let n = 0;
  let i = p;
  while (i < end) {
    const c = buf[i] as number;
    if (c < 48 || c > 57) break;
    n = n * 10 + (c - 48);
    if (++i - p > MAX_DIGITS) return malformed(f, p, `${what} is too long a number`);
  }
  if (i >= end) return NEED_MORE;
  if (i === p) return malformed(f, i, `expected a ${what} (digits), got ${showByte(buf[i])}`);
  if (buf[i] !== CR) return malformed(f, i, `expected '\\r\\n' after the ${what} ${n}, got ${showByte(buf[i])}`);
  if (i + 1 >= end) return NEED_MORE;
  if (buf[i + 1] !== LF) return malformed(f, i + 1, `expected '\\n' after '\\r', got ${showByte(buf[i + 1])}`);
  if (what === 'bulk length' && n > MAX_BULK) return malformed(f, p, `bulk length ${n} is over Redis's 512 MB limit`);
  lengthValue = n;
  return i + 2;
}

/**
 * The payload isn't followed by CRLF: the declared length is wrong. Point at
 * the line break the writer most likely meant as the end, when there is one.
 */
function badPayloadEnd(buf: Buffer, start: number, len: number, f: CommandFrame): number {
  const stop = start + len + 2;
  for (let i = start; i < stop; i++) {
    if (buf[i] !== LF) continue;
    if (i > start && buf[i - 1] === CR) return malformed(f, i - 1, `bulk length ${len} but found '\\r\\n' after ${i - 1 - start} bytes`);
    return malformed(f, i, `bulk length ${len} but found '\\n' after ${i - start} bytes`);
  }
  return malformed(f, start + len, `bulk length ${len} is not followed by '\\r\\n', got ${showByte(buf[start + len])}`);
}

function malformed(f: CommandFrame, at: number, message: string): number {
  f.error = message;
  f.errorAt = at;
  return MALFORMED;
}
