import type { AggregateType, StringType } from '../../../../app/replyText';
import { ReplyProtocolError } from '../../resp/replyProtocolError';
import type { LineType, RespSink } from './respSink';

/*
 * A RESP2 + RESP3 parser that streams: it reports values as events (RespSink) as their bytes
 * arrive and keeps nothing of them, so a reply of any size costs the memory of one line.
 *
 * Why not a library: the npm parsers all hand out whole values. redis-parser (ioredis) is
 * RESP2 only and builds each reply as one JS value; @redis/client's RESP3 decoder and
 * @jsonjoy.com/json-pack's RespStreamingDecoder resume across chunks but still build each
 * top-level reply whole before returning it; respjs is RESP2. Built whole, a 2M-field HGETALL
 * (fields and values of 10 bytes, 74 MB of RESP) is 4M JS strings: ioredis (redis-parser)
 * peaks at 1,035 MB of RSS reading it, where this parser feeding the console's bounded tree
 * and its download file peaks at 150-175 MB, of which ~105 MB is the idle process (and a
 * 100 MB string at 125-160 MB): scripts/measure-reply-memory.ts. The main/core/resp parsers
 * are RESP2 only and made for the bulk pipe (they skip or keep values whole), so only their
 * protocol error is shared.
 */

const CR = 13;
const LF = 10;
/** A line (a simple string, an error, a number, a length) longer than this is refused. */
export const MAX_LINE_BYTES = 1 << 20;

const LINE_TYPES: Record<number, LineType> = {
  0x2b: 'simple', // +
  0x2d: 'error', // -
  0x3a: 'integer', // :
  0x2c: 'double', // ,
  0x28: 'bignum', // (
  0x23: 'boolean', // #
  0x5f: 'null', // _
};
const STRING_TYPES: Record<number, StringType> = { 0x24: 'bulk', 0x21: 'error', 0x3d: 'verbatim' }; // $ ! =
const AGGREGATE_TYPES: Record<number, AggregateType> = {
  0x2a: 'array', // *
  0x7e: 'set', // ~
  0x3e: 'push', // >
  0x25: 'map', // %
  0x7c: 'attribute', // |
};

const State = { Type: 0, Line: 1, Body: 2, BodyEnd: 3, Format: 4 } as const;
type State = (typeof State)[keyof typeof State];

function hex(b: number): string {
  return `0x${b.toString(16).padStart(2, '0')}`;
}

export class RespStreamParser {
  /** Set when a top-level value has just ended (feed returns right after it); clear it to go on. */
  complete = false;
  private state: State = State.Type;
  /** Type byte of the line being read (a value, or a string's or aggregate's length). */
  private lineType = 0;
  private lineParts: Buffer[] = [];
  private lineBytes = 0;
  /** String body bytes still to come, then its CRLF. */
  private bodyLeft = 0;
  private crlfLeft = 0;
  private format = '';
  /** Values still expected per open aggregate, innermost last, and whether each is an attribute. */
  private left: number[] = [];
  private isAttribute: boolean[] = [];
  private depth = 0;

  constructor(public sink: RespSink) {}

  /**
   * Parse `buf` from `from`; returns where it stopped: the end of the chunk, or just after a
   * top-level value (`complete` is then set). Throws ReplyProtocolError on bytes that are not RESP.
   */
  feed(buf: Buffer, from = 0): number {
    const n = buf.length;
    let i = from;
    while (i < n) {
      switch (this.state) {
        case State.Type: {
          this.lineType = buf[i] as number;
          i++;
          // A whole line in this chunk (the usual case) is read in place, without copying.
          const lf = buf.indexOf(LF, i);
          if (lf >= 0 && lf - i <= MAX_LINE_BYTES) {
            const end = lf > i && buf[lf - 1] === CR ? lf - 1 : lf;
            this.lineDone(buf, i, end);
            i = lf + 1;
          } else {
            this.state = State.Line;
          }
          break;
        }
        case State.Line: {
          const lf = buf.indexOf(LF, i);
          const stop = lf < 0 ? n : lf;
          this.lineBytes += stop - i;
          if (this.lineBytes > MAX_LINE_BYTES) {
            throw new ReplyProtocolError(`a RESP line of more than ${MAX_LINE_BYTES} bytes (type byte ${hex(this.lineType)})`);
          }
          // Copied: the caller may reuse its chunk once feed() returns.
          if (stop > i) this.lineParts.push(Buffer.from(buf.subarray(i, stop)));
          if (lf < 0) return n;
          i = lf + 1;
          const line = Buffer.concat(this.lineParts);
          this.lineParts = [];
          this.lineBytes = 0;
          this.state = State.Type;
          const end = line.length > 0 && line[line.length - 1] === CR ? line.length - 1 : line.length;
          this.lineDone(line, 0, end);
          break;
        }
        case State.Format: {
          // A verbatim string's first 4 bytes: its format and a colon ("txt:").
          const take = Math.min(4 - this.format.length, this.bodyLeft, n - i);
          this.format += buf.toString('latin1', i, i + take);
          this.bodyLeft -= take;
          i += take;
          if (this.format.length === 4) {
            if (this.format[3] !== ':') throw new ReplyProtocolError(`a verbatim string starts "${this.format}", not "xxx:"`);
            this.sink.stringStart('verbatim', this.bodyLeft, this.format.slice(0, 3));
            this.state = this.bodyLeft > 0 ? State.Body : State.BodyEnd;
          }
          break;
        }
        case State.Body: {
          const take = Math.min(this.bodyLeft, n - i);
          this.sink.stringPiece(buf, i, i + take);
          i += take;
          this.bodyLeft -= take;
          if (this.bodyLeft === 0) this.state = State.BodyEnd;
          break;
        }
        case State.BodyEnd: {
          const b = buf[i] as number;
          const want = this.crlfLeft === 2 ? CR : LF;
          if (b !== want) throw new ReplyProtocolError(`a RESP string is followed by ${hex(b)}, not CRLF`);
          i++;
          if (--this.crlfLeft === 0) {
            this.state = State.Type;
            this.sink.stringEnd();
            this.valueDone();
          }
          break;
        }
      }
      if (this.complete) return i;
    }
    return i;
  }

  /** Between values, with no half-read line or string. */
  idle(): boolean {
    return this.state === State.Type && this.depth === 0;
  }

  private lineDone(buf: Buffer, start: number, end: number): void {
    const t = this.lineType;
    const line = LINE_TYPES[t];
    if (line !== undefined) {
      if (line === 'boolean' && !(end === start + 1 && (buf[start] === 0x74 || buf[start] === 0x66))) {
        throw new ReplyProtocolError(`a RESP3 boolean must be #t or #f, not #${buf.toString('latin1', start, Math.min(end, start + 20))}`);
      }
      this.sink.line(line, buf, start, end);
      this.valueDone();
      return;
    }
    const str = STRING_TYPES[t];
    const agg = AGGREGATE_TYPES[t];
    if (str === undefined && agg === undefined) {
      throw new ReplyProtocolError(`unexpected byte ${hex(t)} where a RESP reply type (+ - : $ * _ , # ! = ( % ~ | >) was expected`);
    }
    const len = parseLength(buf, start, end);
    if (len < 0) {
      // RESP2's null bulk string ($-1) and null array (*-1).
      this.sink.line('null', buf, start, start);
      this.valueDone();
    } else if (str !== undefined) {
      this.bodyLeft = len;
      this.crlfLeft = 2;
      if (str === 'verbatim') {
        if (len < 4) throw new ReplyProtocolError(`a verbatim string of ${len} bytes has no room for its "txt:" format`);
        this.format = '';
        this.state = State.Format;
        return;
      }
      this.sink.stringStart(str, len, '');
      this.state = len > 0 ? State.Body : State.BodyEnd;
    } else {
      const a = agg as AggregateType;
      this.sink.open(a, len);
      if (len === 0) {
        this.sink.close();
        if (a !== 'attribute') this.valueDone();
        return;
      }
      const mapLike = a === 'map' || a === 'attribute';
      this.left[this.depth] = mapLike ? len * 2 : len;
      this.isAttribute[this.depth] = a === 'attribute';
      this.depth++;
    }
  }

  /** One value ended: close each aggregate it completes; an attribute is not a value of its parent. */
  private valueDone(): void {
    for (;;) {
      const d = this.depth;
      if (d === 0) {
        this.complete = true;
        return;
      }
      const left = (this.left[d - 1] as number) - 1;
      this.left[d - 1] = left;
      if (left > 0) return;
      this.depth--;
      this.sink.close();
      if (this.isAttribute[d - 1] === true) return;
    }
  }
}

/** A RESP length: digits, or -1 for null. Streamed RESP3 values (`$?`, `*?`) are refused: Redis never sends them. */
function parseLength(buf: Buffer, start: number, end: number): number {
  if (end - start === 1 && buf[start] === 0x3f) {
    throw new ReplyProtocolError('streamed RESP3 values ($?, *?) are not supported: Redis does not send them');
  }
  if (end - start === 2 && buf[start] === 0x2d && buf[start + 1] === 0x31) return -1;
  if (end === start || end - start > 15) throw new ReplyProtocolError(`a RESP length of ${end - start} characters`);
  let n = 0;
  for (let i = start; i < end; i++) {
    const d = (buf[i] as number) - 48;
    if (d < 0 || d > 9) throw new ReplyProtocolError(`unexpected byte ${hex(d + 48)} in a RESP length`);
    n = n * 10 + d;
  }
  return n;
}
