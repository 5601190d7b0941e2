import { Crc64 } from './crc64';
import { RdbError } from './rdbError';

const EMPTY = Buffer.alloc(0);

/**
 * Bytes from an async source of chunks, read in place: the parser indexes `buf` at `pos` directly
 * and calls the async methods only when a read crosses the end of the chunk it holds, so a key
 * costs no promise unless it straddles two chunks. Skipping a value never buffers it; `fill`
 * joins at most the bytes a single header needs (or a compact blob the caller chose to walk).
 * The CRC runs over every consumed byte as chunks are retired, so skipped bytes are checked too.
 */
export class ByteReader {
  buf: Buffer = EMPTY;
  pos = 0;
  /** Absolute offset of buf[0] in the stream. */
  private base = 0;
  /** Absolute offset up to which the CRC has run. */
  private crcAt = 0;
  private ended = false;
  readonly crc: Crc64 | undefined;

  constructor(
    private readonly chunks: AsyncIterator<Buffer>,
    private readonly version: () => number,
    checksum: boolean,
  ) {
    this.crc = checksum ? new Crc64() : undefined;
  }

  /** Absolute offset of the next byte to read. */
  get offset(): number {
    return this.base + this.pos;
  }

  avail(): number {
    return this.buf.length - this.pos;
  }

  /** Make `n` bytes readable at `pos`, or fail with the offset where the stream ended. */
  async fill(n: number): Promise<void> {
    if (this.buf.length - this.pos >= n) return;
    const parts: Buffer[] = [this.buf.subarray(this.pos)];
    let have = parts[0]!.length;
    const start = this.offset;
    this.retire();
    while (have < n) {
      const chunk = await this.next();
      if (chunk === undefined) throw this.truncated(start + have);
      parts.push(chunk);
      have += chunk.length;
    }
    this.buf = parts.length === 1 ? parts[0]! : Buffer.concat(parts, have);
    this.base = start;
    this.pos = 0;
  }

  /** Like fill, but content with fewer bytes at the end of the stream; returns how many are readable. */
  async fillUpTo(n: number): Promise<number> {
    try {
      await this.fill(n);
    } catch (err) {
      if (!(err instanceof RdbError) || err.kind !== 'truncated') throw err;
    }
    return this.avail();
  }

  /** Move past `n` bytes, pulling chunks without keeping them. */
  async skip(n: number): Promise<void> {
    const here = this.buf.length - this.pos;
    if (here >= n) {
      this.pos += n;
      return;
    }
    let left = n - here;
    const target = this.offset + n;
    this.pos = this.buf.length;
    this.retire();
    for (;;) {
      const chunk = await this.next();
      if (chunk === undefined) throw this.truncated(target - left);
      this.base = this.base + this.buf.length;
      this.buf = chunk;
      this.pos = 0;
      if (chunk.length >= left) {
        this.pos = left;
        return;
      }
      left -= chunk.length;
      this.pos = chunk.length;
      this.retire();
    }
  }

  /** Run the CRC up to `pos` (exclusive): called at the EOF opcode, before the checksum itself. */
  crcToHere(): void {
    this.retire();
  }

  /** Whether anything follows `pos` (bytes after the checksum are garbage in a file, never in a stream). */
  async atEnd(): Promise<boolean> {
    return (await this.fillUpTo(1)) === 0;
  }

  truncated(at: number): RdbError {
    return new RdbError('truncated', `the RDB ends early: cut short at byte ${at}`, at, this.version());
  }

  /**
   * gzip's own failures, said in the parser's terms: a .gz cut short is a truncated RDB (at the
   * offset reached in the inflated bytes), other zlib errors a corrupt file. Anything else (a file
   * or socket error) passes through as it is.
   */
  private sourceError(err: unknown): unknown {
    const code = (err as { code?: unknown } | null)?.code;
    const at = this.base + this.buf.length;
    if (code === 'Z_BUF_ERROR') return new RdbError('truncated', `the gzip stream ends early: the RDB is cut short at byte ${at}`, at, this.version());
    if (typeof code === 'string' && code.startsWith('Z_')) {
      return new RdbError('corrupt', `the gzip stream is corrupt (${(err as Error).message}) after byte ${at} of the RDB`, at, this.version());
    }
    return err;
  }

  /** Run the CRC over what was consumed of the current buffer, before it is dropped or joined. */
  private retire(): void {
    if (this.crc === undefined) return;
    const from = this.crcAt - this.base;
    if (from < this.pos) this.crc.update(this.buf, from, this.pos);
    this.crcAt = this.base + this.pos;
  }

  private async next(): Promise<Buffer | undefined> {
    if (this.ended) return undefined;
    for (;;) {
      let r: IteratorResult<Buffer>;
      try {
        r = await this.chunks.next();
      } catch (err) {
        throw this.sourceError(err);
      }
      if (r.done === true) {
        this.ended = true;
        return undefined;
      }
      if (r.value.length > 0) return r.value;
    }
  }
}
