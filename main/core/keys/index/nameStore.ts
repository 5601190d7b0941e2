/** Bytes a chunk of names holds; a longer name gets a chunk of its own. */
const CHUNK_BYTES = 8 * 1024 * 1024;
const INITIAL_NAMES = 64 * 1024;

/**
 * Key names, compact: their bytes appended into large Buffers, each name's place in typed
 * arrays (a float64 address, chunk × 2^32 + offset, and a uint32 length): about 12 bytes a key
 * beyond its name, and no object per key for the garbage collector to walk. Ids are dense,
 * 0 … size-1, in the order the names were added.
 */
export class NameStore {
  private chunks: Buffer[] = [];
  private used = 0;
  private addr = new Float64Array(INITIAL_NAMES);
  private len = new Uint32Array(INITIAL_NAMES);
  private n = 0;
  private chunkBytes = 0;

  get size(): number {
    return this.n;
  }

  /** Memory held: the chunks allocated and the two arrays. */
  get bytes(): number {
    return this.chunkBytes + this.addr.byteLength + this.len.byteLength;
  }

  /** Keep buf[start, end) as the next id. */
  add(buf: Buffer, start = 0, end = buf.length): number {
    const length = end - start;
    if (this.n === this.addr.length) this.growIds();
    let chunk = this.chunks[this.chunks.length - 1];
    if (chunk === undefined || this.used + length > chunk.length) {
      chunk = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, length));
      this.chunks.push(chunk);
      this.chunkBytes += chunk.length;
      this.used = 0;
    }
    buf.copy(chunk, this.used, start, end);
    const id = this.n++;
    this.addr[id] = (this.chunks.length - 1) * 2 ** 32 + this.used;
    this.len[id] = length;
    this.used += length;
    return id;
  }

  /** The name of `id`, as a view into the store (copy it to keep it past a drop()). */
  name(id: number): Buffer {
    const a = this.addr[id] as number;
    const chunk = this.chunks[Math.floor(a / 2 ** 32)] as Buffer;
    const off = a % 2 ** 32;
    return chunk.subarray(off, off + (this.len[id] as number));
  }

  compare(a: number, b: number): number {
    return Buffer.compare(this.name(a), this.name(b));
  }

  /** Let every name go (the index went over its budget). */
  drop(): void {
    this.chunks = [];
    this.used = 0;
    this.chunkBytes = 0;
    this.addr = new Float64Array(0);
    this.len = new Uint32Array(0);
    this.n = 0;
  }

  private growIds(): void {
    const cap = Math.max(INITIAL_NAMES, this.addr.length * 2);
    const addr = new Float64Array(cap);
    addr.set(this.addr);
    const len = new Uint32Array(cap);
    len.set(this.len);
    this.addr = addr;
    this.len = len;
  }
}
