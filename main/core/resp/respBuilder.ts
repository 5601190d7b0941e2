/** Default slab: several batches of the default 512 KiB fit before a new one is needed. */
const DEFAULT_SLAB_BYTES = 4 << 20;
/** Below this many bytes a JS loop beats Buffer#copy, whose call overhead dominates short keys. */
const SHORT_COPY = 24;
/** Room for a RESP header line: a type byte, up to 16 digits, CRLF. */
const HEADER_ROOM = 20;
/** Spare slabs kept for reuse: enough for the batches a load keeps in flight. */
const MAX_FREE_SLABS = 16;

const STAR = 42;
const DOLLAR = 36;
const CR = 13;
const LF = 10;

/**
 * Growable RESP encoder for the bulk loader: `*N\r\n` then `$len\r\n<bytes>\r\n`
 * per argument, lengths in bytes (a string's UTF-8 length, not its length).
 *
 * Memory is a slab that take() hands out in consecutive slices: a returned
 * Buffer goes to socket.write, which may hold it until the kernel takes it,
 * so bytes once taken are never written again. When the slab runs out a new
 * one is allocated (the old one lives as long as its slices do), carrying over
 * any command still being built. clear() is the other way to reset: it drops
 * what was written since the last take() and reuses that memory, for scratch
 * builders whose bytes are copied elsewhere rather than taken.
 */
export class RespBuilder {
  private buf: Buffer;
  private begin = 0;
  private pos = 0;
  private readonly slabBytes: number;
  /**
   * Taken slices not yet given back, per slab. A load pushes its whole input
   * through here; left to the garbage collector, spent slabs pile up as
   * external memory (V8 sees a small heap and rarely collects), so slabs whose
   * every slice came back through recycle() are reused instead. Weak, so a
   * consumer that never gives slices back (a preview) pins nothing.
   */
  private readonly outstanding = new WeakMap<ArrayBufferLike, number>();
  private readonly free: Buffer[] = [];

  constructor(slabBytes = DEFAULT_SLAB_BYTES) {
    this.slabBytes = Math.max(64, slabBytes);
    this.buf = this.newSlab();
  }

  /**
   * Give back a Buffer returned by take() once nothing reads it any more (the
   * pipe calls this when every command in it has been answered, so the socket
   * is done with the bytes). Its slab is reused once all its slices are back.
   */
  recycle(taken: Buffer): void {
    const slab = taken.buffer;
    const left = (this.outstanding.get(slab) ?? 0) - 1;
    if (left > 0) {
      this.outstanding.set(slab, left);
      return;
    }
    this.outstanding.delete(slab);
    if (slab !== this.buf.buffer) this.retire(slab);
  }

  private newSlab(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.slabBytes);
  }

  /** A slab no longer written to and with no slice outstanding goes to the free list. */
  private retire(slab: ArrayBufferLike): void {
    if (slab.byteLength === this.slabBytes && this.free.length < MAX_FREE_SLABS && !this.outstanding.has(slab)) {
      this.free.push(Buffer.from(slab));
    }
  }

  /** Move to another slab; the old one is reused at once if nothing it handed out is still in use. */
  private switchTo(next: Buffer): void {
    const old = this.buf.buffer;
    this.buf = next;
    this.retire(old);
  }

  /** Bytes written since the last take() or clear(). */
  get size(): number {
    return this.pos - this.begin;
  }

  /**
   * The current slab and offsets into it, for reading back what was just
   * written (a key, to hand to the KeyTracker). Valid only until the next
   * write: a write may move everything to a new slab.
   */
  get bytes(): Buffer {
    return this.buf;
  }
  get start(): number {
    return this.begin;
  }
  get offset(): number {
    return this.pos;
  }

  /** `*argc\r\n`: the caller then writes exactly argc arguments. */
  command(argc: number): this {
    this.ensure(HEADER_ROOM);
    this.header(STAR, argc);
    return this;
  }

  /** One bulk string: the UTF-8 bytes of s. */
  arg(s: string): this {
    const len = Buffer.byteLength(s, 'utf8');
    this.ensure(len + HEADER_ROOM + 2);
    this.header(DOLLAR, len);
    this.pos += this.buf.write(s, this.pos, 'utf8');
    this.buf[this.pos++] = CR;
    this.buf[this.pos++] = LF;
    return this;
  }

  /** One bulk string: src[start, end), any bytes. */
  argBytes(src: Uint8Array, start: number, end: number): this {
    const len = end - start;
    this.ensure(len + HEADER_ROOM + 2);
    this.header(DOLLAR, len);
    this.copyIn(src, start, end);
    this.buf[this.pos++] = CR;
    this.buf[this.pos++] = LF;
    return this;
  }

  /** One bulk string holding n in decimal, as Redis would print it. */
  argNumber(n: number): this {
    if (!Number.isSafeInteger(n)) return this.arg(String(n));
    this.ensure(2 * HEADER_ROOM + 2);
    const digits = decimalLength(n);
    this.header(DOLLAR, digits);
    this.writeInt(n);
    this.buf[this.pos++] = CR;
    this.buf[this.pos++] = LF;
    return this;
  }

  /**
   * `$len\r\n` alone: the caller writes exactly len bytes with raw() and ends
   * with end(). For arguments assembled from parts (a key template).
   */
  bulkHeader(len: number): this {
    this.ensure(len + HEADER_ROOM + 2);
    this.header(DOLLAR, len);
    return this;
  }

  /** Closes an argument opened with bulkHeader(). */
  end(): this {
    this.ensure(2);
    this.buf[this.pos++] = CR;
    this.buf[this.pos++] = LF;
    return this;
  }

  /** Bytes copied as they are: pre-encoded RESP, or an argument's parts. */
  raw(src: Uint8Array, start = 0, end = src.length): this {
    this.ensure(end - start);
    this.copyIn(src, start, end);
    return this;
  }

  /**
   * Where the next byte goes, relative to the open part: stays valid when a
   * write moves the open part to a new slab, until the next take() or clear().
   */
  get mark(): number {
    return this.pos - this.begin;
  }

  /**
   * Rewrite the `*count\r\n` written at `mark` (an array header, from
   * command()) from oldCount to newCount, shifting what follows when the
   * number gains digits: lets a variadic command grow after it was written.
   */
  patchCount(mark: number, oldCount: number, newCount: number): void {
    const oldLen = decimalLength(oldCount);
    const grow = decimalLength(newCount) - oldLen;
    if (grow < 0) throw new RangeError('patchCount only grows a count');
    if (grow > 0) {
      this.ensure(grow);
      const digits = this.begin + mark + 1;
      this.buf.copyWithin(digits + oldLen + grow, digits + oldLen, this.pos);
      this.pos += grow;
    }
    const end = this.pos;
    this.pos = this.begin + mark + 1;
    this.writeInt(newCount);
    this.pos = end;
  }

  /** The bytes written since the last take(), as a Buffer this builder will never write to again. */
  take(): Buffer {
    const out = this.buf.subarray(this.begin, this.pos);
    this.outstanding.set(this.buf.buffer, (this.outstanding.get(this.buf.buffer) ?? 0) + 1);
    this.begin = this.pos;
    // Start the next batch on a fresh slab while nothing is open, rather than copy it over later.
    if (this.buf.length - this.pos < this.slabBytes >> 2) {
      this.switchTo(this.newSlab());
      this.begin = 0;
      this.pos = 0;
    }
    return out;
  }

  /** Forget the bytes written since the last take(), reusing their memory. */
  clear(): void {
    this.pos = this.begin;
  }

  /** Makes room for n more bytes after pos, moving the open part to a fresh slab if needed. */
  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const open = this.pos - this.begin;
    const size = Math.max(this.slabBytes, 2 * (open + n));
    const next = size === this.slabBytes ? this.newSlab() : Buffer.allocUnsafeSlow(size);
    this.buf.copy(next, 0, this.begin, this.pos);
    this.switchTo(next);
    this.begin = 0;
    this.pos = open;
  }

  private header(type: number, n: number): void {
    this.buf[this.pos++] = type;
    this.writeInt(n);
    this.buf[this.pos++] = CR;
    this.buf[this.pos++] = LF;
  }

  /** A safe integer in decimal, without going through a string. */
  private writeInt(n: number): void {
    const buf = this.buf;
    if (n < 0) {
      buf[this.pos++] = 45; // '-'
      n = -n;
    }
    if (n < 10) {
      buf[this.pos++] = 48 + n;
      return;
    }
    let p = this.pos + decimalLength(n);
    this.pos = p;
    while (n >= 10) {
      const q = Math.floor(n / 10);
      buf[--p] = 48 + (n - q * 10);
      n = q;
    }
    buf[p - 1] = 48 + n;
  }

  private copyIn(src: Uint8Array, start: number, end: number): void {
    const len = end - start;
    if (len < SHORT_COPY) {
      const buf = this.buf;
      let p = this.pos;
      for (let i = start; i < end; i++) buf[p++] = src[i] as number;
    } else {
      this.buf.set(src.subarray(start, end), this.pos);
    }
    this.pos += len;
  }
}

/** Digits in a non-negative integer's decimal form (for `$len` before the digits themselves). */
function decimalLength(n: number): number {
  if (n < 0) return 1 + decimalLength(-n);
  let d = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    d++;
  }
  return d;
}
