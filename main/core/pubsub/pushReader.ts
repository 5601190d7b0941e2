import { ReplyProtocolError } from '../resp/replyProtocolError';

/** A bulk string as kept: its first bytes (a copy) and how long it really was. */
export interface Kept {
  bytes: Buffer;
  length: number;
}

/** One element of a push: a bulk string, an integer (a subscription count), or null. */
export type PushItem = Kept | number | null;

export interface PushListener {
  /** A whole top-level array: `message ch payload`, `subscribe ch 1`, `pong ""`… */
  push(items: PushItem[]): void;
  /** A top-level error reply: the answer to the oldest command still waiting for one. */
  error(message: string): void;
}

const CR = 13;
const LF = 10;
/** A header line (`*3`, `$5`, `-NOPERM …`) longer than this is not RESP we sent for. */
const MAX_LINE = 64 * 1024;
/** Bytes always kept of a bulk string. */
const MIN_KEEP = 32;

const Mode = { Header: 0, Bulk: 1, Crlf: 2 } as const;
type Mode = (typeof Mode)[keyof typeof Mode];

/**
 * Incremental RESP2 reader for a connection in subscribe mode. It keeps only the first
 * `keep` bytes of each bulk string and skips the rest as it streams past, so a 100 MB
 * payload costs `keep` bytes of memory, not 100 MB, and the socket is read on as fast as
 * it comes. Chunks may split anything anywhere. Kept bytes are copied out of the chunk:
 * a message held for a viewer never pins a 64 KB socket chunk.
 */
export class PushReader {
  private mode: Mode = Mode.Header;
  private carry: Buffer | undefined;
  /** Elements still expected by the open array; -1: none is open. */
  private left = -1;
  private items: PushItem[] = [];
  private bulkLeft = 0;
  private bulk: Kept | undefined;
  private bulkKept = 0;
  private crlfLeft = 0;

  private readonly keep: number;

  constructor(
    keep: number,
    private readonly listener: PushListener,
  ) {
    // At least a push's kind whole (`punsubscribe`), which says what the rest is.
    this.keep = Math.max(MIN_KEEP, keep);
  }

  /** Forget any half-read reply (a new connection starts clean). */
  reset(): void {
    this.mode = Mode.Header;
    this.carry = undefined;
    this.left = -1;
    this.items = [];
    this.bulk = undefined;
  }

  feed(chunk: Buffer): void {
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      if (this.mode === Mode.Bulk) {
        const take = Math.min(this.bulkLeft, n - i);
        const bulk = this.bulk as Kept;
        const room = bulk.bytes.length - this.bulkKept;
        if (room > 0) this.bulkKept += chunk.copy(bulk.bytes, this.bulkKept, i, i + Math.min(room, take));
        i += take;
        this.bulkLeft -= take;
        if (this.bulkLeft === 0) this.startCrlf();
        continue;
      }
      if (this.mode === Mode.Crlf) {
        const take = Math.min(this.crlfLeft, n - i);
        i += take;
        this.crlfLeft -= take;
        if (this.crlfLeft === 0) {
          this.mode = Mode.Header;
          this.item(this.bulk as Kept);
          this.bulk = undefined;
        }
        continue;
      }
      const lf = chunk.indexOf(LF, i);
      if (lf < 0) {
        this.carry = this.carry === undefined ? Buffer.from(chunk.subarray(i)) : Buffer.concat([this.carry, chunk.subarray(i)]);
        if (this.carry.length > MAX_LINE) throw new ReplyProtocolError(`a reply header longer than ${MAX_LINE} bytes`);
        return;
      }
      let line = chunk.subarray(i, lf);
      if (this.carry !== undefined) {
        line = Buffer.concat([this.carry, line]);
        this.carry = undefined;
      }
      i = lf + 1;
      this.header(line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, line.length - 1) : line);
    }
  }

  private startCrlf(): void {
    this.mode = Mode.Crlf;
    this.crlfLeft = 2;
  }

  private header(line: Buffer): void {
    const type = line[0];
    const rest = line.toString('latin1', 1);
    switch (type) {
      case 0x2a: {
        // '*': an array. Pushes are flat: one inside another is not a reply we asked for.
        if (this.left >= 0) throw new ReplyProtocolError('a nested array in a Pub/Sub push');
        const count = integer(rest);
        if (count <= 0) {
          this.listener.push([]);
          return;
        }
        this.left = count;
        this.items = [];
        return;
      }
      case 0x24: {
        // '$': a bulk string, or null.
        const length = integer(rest);
        if (length < 0) {
          this.item(null);
          return;
        }
        this.bulk = { bytes: Buffer.allocUnsafe(Math.min(length, this.keep)), length };
        this.bulkKept = 0;
        this.bulkLeft = length;
        if (length === 0) this.startCrlf();
        else this.mode = Mode.Bulk;
        return;
      }
      case 0x3a:
        this.item(integer(rest));
        return;
      case 0x2d:
        if (this.left >= 0) throw new ReplyProtocolError('an error inside a Pub/Sub push');
        this.listener.error(line.toString('utf8', 1));
        return;
      case 0x2b:
        // A simple string: +OK or +PONG outside subscribe mode; an element otherwise.
        if (this.left >= 0) this.item({ bytes: Buffer.from(rest, 'latin1'), length: rest.length });
        return;
      default:
        throw new ReplyProtocolError(`unexpected byte 0x${(type ?? 0).toString(16).padStart(2, '0')} where a RESP2 reply was expected`);
    }
  }

  private item(v: PushItem): void {
    if (this.left < 0) return; // a lone top-level value: nothing in subscribe mode sends one
    this.items.push(v);
    this.left -= 1;
    if (this.left > 0) return;
    const items = this.items;
    this.items = [];
    this.left = -1;
    this.listener.push(items);
  }
}

function integer(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n)) throw new ReplyProtocolError(`"${text.slice(0, 40)}" is not a RESP length`);
  return n;
}

/** An item's text when it is a bulk string (the push's kind, `message`), else undefined. */
export function kindOf(item: PushItem | undefined): string | undefined {
  return item !== null && typeof item === 'object' ? item.bytes.toString('latin1') : undefined;
}
