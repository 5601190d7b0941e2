/** Bytes a chunk of names holds; a longer name gets chunks of its own. */
const CHUNK_BYTES = 8 * 1024 * 1024;
const INITIAL_NAMES = 64 * 1024;
/** Names longer than this keep their length in a side table (rare: a 64 KB key name). */
const LONG = 0xffff;

/**
 * Key names, compact: their bytes appended into 8 MB Buffers, each name's place in typed
 * arrays: a uint32 offset in the chunks' joint address space (chunk i starts at i × 8 MB) and
 * a uint16 length, so 6 bytes a key beyond its name, and no object per key for the garbage
 * collector to walk. The arrays grow by half, not double: at 10M keys doubling would hold
 * ~100 MB of slack. Ids are dense, 0 … size-1, in the order the names were added.
 */
export class NameStore {
  private chunks: (Buffer | undefined)[] = [];
  /** Offset of the next name (in the joint address space), and the end of the current chunk. */
  private next = 0;
  private chunkEnd = 0;
  private addr = new Uint32Array(INITIAL_NAMES);
  private len = new Uint16Array(INITIAL_NAMES);
  private readonly longLen = new Map<number, number>();
  private n = 0;
  private chunkBytes = 0;

  get size(): number {
    return this.n;
  }

  /** Memory held: the chunks allocated and the two arrays. */
  get bytes(): number {
    return this.chunkBytes + this.addr.byteLength + this.len.byteLength;
  }

  /** Whether the store can take a name of `length` bytes (the joint address space is 4 GB). */
  fits(length: number): boolean {
    return this.next + length + CHUNK_BYTES < 2 ** 32;
  }

  /** Keep buf[start, end) as the next id. */
  add(buf: Buffer, start = 0, end = buf.length): number {
    const length = end - start;
    if (this.n === this.addr.length) this.growIds();
    if (length > 0 && this.next + length > this.chunkEnd) this.newChunk(length);
    const at = this.next;
    // An empty name takes no bytes (its offset may be a chunk's end: nothing is read there).
    if (length > 0) buf.copy(this.chunks[Math.floor(at / CHUNK_BYTES)] as Buffer, at % CHUNK_BYTES, start, end);
    const id = this.n++;
    this.addr[id] = at;
    if (length >= LONG) {
      this.len[id] = LONG;
      this.longLen.set(id, length);
    } else {
      this.len[id] = length;
    }
    // A name longer than a chunk has its chunk to itself: an address past its first 8 MB
    // would name the wrong slot.
    this.next = length > CHUNK_BYTES ? this.chunkEnd : this.next + length;
    return id;
  }

  /** The name of `id`, as a view into the store (copy it to keep it past a drop()). */
  name(id: number): Buffer {
    const at = this.addr[id] as number;
    const l = this.len[id] === LONG ? (this.longLen.get(id) as number) : (this.len[id] as number);
    if (l === 0) return Buffer.alloc(0);
    const chunk = this.chunks[Math.floor(at / CHUNK_BYTES)] as Buffer;
    const off = at % CHUNK_BYTES;
    return chunk.subarray(off, off + l);
  }

  /** Let every name go (the index went over its budget). */
  drop(): void {
    this.chunks = [];
    this.next = this.chunkEnd = this.chunkBytes = this.n = 0;
    this.addr = new Uint32Array(0);
    this.len = new Uint16Array(0);
    this.longLen.clear();
  }

  /** Start a chunk at the next chunk boundary; a name longer than a chunk takes several slots. */
  private newChunk(length: number): void {
    const slot = Math.ceil(this.next / CHUNK_BYTES);
    const size = Math.max(CHUNK_BYTES, Math.ceil(length / CHUNK_BYTES) * CHUNK_BYTES);
    this.chunks[slot] = Buffer.allocUnsafe(size);
    this.chunkBytes += size;
    this.next = slot * CHUNK_BYTES;
    this.chunkEnd = this.next + size;
  }

  private growIds(): void {
    const cap = Math.max(INITIAL_NAMES, Math.ceil(this.addr.length * 1.5));
    const addr = new Uint32Array(cap);
    addr.set(this.addr);
    const len = new Uint16Array(cap);
    len.set(this.len);
    this.addr = addr;
    this.len = len;
  }
}
