import { ReplyProtocolError } from './replyProtocolError';

/** An error reply (`-ERR …`, `-WRONGTYPE …`, `-NOPERM …`): a value, so one bad key does not lose its neighbours' replies. */
export class ReplyError {
  constructor(readonly message: string) {}
}

/** RESP2 values: simple strings as text, bulk strings as bytes (keys are any bytes), null for $-1 / *-1. */
export type Reply = string | number | Buffer | null | ReplyError | Reply[];

const INCOMPLETE = Symbol('incomplete');
const EMPTY = Buffer.alloc(0);
/** A bulk string still this many bytes short is not looked at again until they are all in. */
const PARK_BYTES = 64 * 1024;
const CR = 13;

/** An array being filled, innermost last: replies resume where a chunk ended, never re-parsed. */
interface Open {
  items: Reply[];
  next: number;
}

/**
 * Incremental RESP2 decoder for RespPipe (sampling, audience, trials). Unlike the bulk pipe's
 * parser it keeps values (types, encodings, sizes, keys). Bulk strings are
 * views into the chunk they arrived in: copy what outlives the batch.
 *
 * A chunk can end anywhere: what is left over is one unfinished value (a
 * header line or a bulk string), kept and completed by the next chunk, while
 * the arrays around it stay half-built on a stack. So a SCAN reply of 100,000
 * keys spread over many chunks costs one pass, and a bulk string of many
 * megabytes is copied once, when all of it has arrived.
 */
export class ReplyReader {
  private buf: Buffer = EMPTY;
  private pos = 0;
  private readonly open: Open[] = [];
  /** Bytes from `pos` the unfinished bulk string needs (0: unknown or small). */
  private want = 0;
  private parked: Buffer[] = [];
  private parkedBytes = 0;
  /**
   * Bulk strings as latin1 text rather than bytes, for the values that follow
   * (an encoding name, not a key): one string instead of a Buffer view and a
   * string made from it, a million times in a census.
   */
  bulkAsText = false;

  feed(chunk: Buffer, onReply: (r: Reply) => void): void {
    if (this.parkedBytes > 0) {
      this.parked.push(chunk);
      this.parkedBytes += chunk.length;
      if (this.parkedBytes < this.want) return;
      this.buf = Buffer.concat(this.parked, this.parkedBytes);
      this.parked = [];
      this.parkedBytes = 0;
    } else if (this.pos < this.buf.length) {
      this.buf = Buffer.concat([this.buf.subarray(this.pos), chunk]);
    } else {
      this.buf = chunk;
    }
    this.pos = 0;
    this.want = 0;
    for (;;) {
      let v = this.value();
      if (v === INCOMPLETE) break;
      if (v === OPENED) continue;
      // A finished value fills its array's next slot, which may finish that array, and so on up.
      for (;;) {
        const top = this.open[this.open.length - 1];
        if (top === undefined) {
          onReply(v);
          break;
        }
        top.items[top.next++] = v;
        if (top.next < top.items.length) break;
        this.open.pop();
        v = top.items;
      }
    }
    const left = this.buf.length - this.pos;
    if (this.want >= PARK_BYTES && left < this.want) {
      this.parked = [this.buf.subarray(this.pos)];
      this.parkedBytes = left;
      this.buf = EMPTY;
      this.pos = 0;
    }
  }

  /** One scalar, or the header of a non-empty array (pushed on the stack), or INCOMPLETE. */
  private value(): Reply | typeof INCOMPLETE | typeof OPENED {
    const buf = this.buf;
    const at = this.pos;
    if (at >= buf.length) return INCOMPLETE;
    const cr = buf.indexOf(CR, at + 1);
    if (cr < 0 || cr + 1 >= buf.length) return INCOMPLETE;
    const type = buf[at];
    switch (type) {
      case 0x2b: // + simple string
        this.pos = cr + 2;
        return buf.toString('latin1', at + 1, cr);
      case 0x2d: // - error
        this.pos = cr + 2;
        return new ReplyError(buf.toString('utf8', at + 1, cr));
      case 0x3a: // : integer
        this.pos = cr + 2;
        return integer(buf, at + 1, cr);
      case 0x24: {
        // $ bulk string
        const len = integer(buf, at + 1, cr);
        if (len < 0) {
          this.pos = cr + 2;
          return null;
        }
        const start = cr + 2;
        if (start + len + 2 > buf.length) {
          this.want = start + len + 2 - at;
          return INCOMPLETE;
        }
        this.pos = start + len + 2;
        return this.bulkAsText ? buf.toString('latin1', start, start + len) : buf.subarray(start, start + len);
      }
      case 0x2a: {
        // * array
        const len = integer(buf, at + 1, cr);
        this.pos = cr + 2;
        if (len < 0) return null;
        if (len === 0) return [];
        this.open.push({ items: new Array<Reply>(len), next: 0 });
        return OPENED;
      }
      default:
        throw new ReplyProtocolError(`unexpected byte 0x${(type ?? 0).toString(16).padStart(2, '0')} where a RESP2 reply type (+ - : $ *) was expected`);
    }
  }
}

const OPENED = Symbol('opened');

function integer(buf: Buffer, start: number, end: number): number {
  let i = start;
  const negative = buf[i] === 0x2d;
  if (negative) i++;
  let n = 0;
  for (; i < end; i++) {
    const d = (buf[i] as number) - 48;
    if (d < 0 || d > 9) throw new ReplyProtocolError(`unexpected byte 0x${(d + 48).toString(16)} in a RESP integer`);
    n = n * 10 + d;
  }
  return negative ? -n : n;
}
