import { ByteReader } from './byteReader';
import { HEADER_BYTES, headerCount, walkBlob, walked, type BlobKind } from './compactBlobs';
import { lzfDecompress } from './lzf';
import { ENC, FIRST_CHECKSUMMED_VERSION, MAX_REDIS_RDB_VERSION, MODULE_NAME_CHARSET, MODULE_OP, OP, QUICKLIST_NODE, T, VALKEY_RDB_VERSION } from './rdbFormat';
import { RdbError } from './rdbError';
import type { RdbKeyRecord, RdbSummary, RdbVisitor } from './rdbRecord';
import { skipStream } from './streamSkipper';
import type { ValueCursor } from './valueCursor';

export interface RdbParseOptions {
  /** Check the trailing CRC-64 (default true). Costs a pass over every byte. */
  checksum?: boolean;
  /**
   * Decompress LZF-compressed compact blobs to walk their entries for the largest element
   * (default false: only the few header bytes holding the count are decompressed).
   */
  deep?: boolean;
}

/** Uncompressed compact blobs up to this size are walked for their largest element; bigger ones only by header. */
const WALK_MAX = 1 << 20;
const PROGRESS_EVERY = 4 << 20;

/** Types whose value is one compact blob: [type, encoding, blob kind, blob entries per element]. */
type SingleBlob = readonly [RdbKeyRecord['type'], string, BlobKind, number];
const SINGLE_BLOB: Partial<Record<number, SingleBlob>> = {
  [T.SET_INTSET]: ['set', 'intset', 'intset', 1],
  [T.SET_LISTPACK]: ['set', 'listpack', 'listpack', 1],
  [T.ZSET_ZIPLIST]: ['zset', 'ziplist', 'ziplist', 2],
  [T.ZSET_LISTPACK]: ['zset', 'listpack', 'listpack', 2],
  [T.HASH_ZIPMAP]: ['hash', 'zipmap', 'zipmap', 1],
  [T.HASH_ZIPLIST]: ['hash', 'ziplist', 'ziplist', 2],
  [T.HASH_LISTPACK]: ['hash', 'listpack', 'listpack', 2],
  [T.LIST_ZIPLIST]: ['list', 'ziplist', 'ziplist', 1],
};

/** String header kinds. */
const RAW = 0;
const INT = 1;
const LZF = 2;

/**
 * The RDB reader: one pass, values skipped (never built), one record per key to the visitor.
 * Every read goes through a synchronous fast path on the current chunk and awaits only at a
 * chunk boundary. Anything it does not know stops it with the offset and version, because a
 * guess would be a wrong figure.
 */
export class RdbParser implements ValueCursor {
  readonly r: ByteReader;
  version = 0;
  private db = 0;
  private keys = 0;
  private nextProgress = PROGRESS_EVERY;
  private scratch = Buffer.alloc(1024);
  /** The last string header: its kind, value length (uncompressed; digits for integers), bytes after the header, integer value. */
  sKind = RAW;
  sLen = 0;
  sStored = 0;
  sInt = 0;
  readonly rec: RdbKeyRecord = newKeyRecord();

  constructor(
    chunks: AsyncIterator<Buffer>,
    private readonly visitor: RdbVisitor,
    private readonly opts: RdbParseOptions = {},
  ) {
    this.r = new ByteReader(chunks, () => this.version, opts.checksum !== false);
  }

  async run(): Promise<RdbSummary> {
    const r = this.r;
    await this.header();
    let expiresAt: number | null = null;
    let keyStart = -1;
    for (;;) {
      if (r.avail() < 1) await r.fill(1);
      const at = r.offset;
      const t = r.buf[r.pos++]!;
      if (t < OP.SLOT_INFO) {
        // Checked before the key is read, so an unknown type is reported as such and not as whatever its bytes look like.
        if (t === 8 || t > T.HASH_LISTPACK_EX) throw new RdbError('unknown-type', `unknown value type ${t} at byte ${at}`, at, this.version);
        const start = keyStart < 0 ? at : keyStart;
        if (!this.keyValueHere(t, start, expiresAt)) await this.keyValue(t, at, start, expiresAt);
        expiresAt = null;
        keyStart = -1;
        continue;
      }
      switch (t) {
        case OP.EXPIRETIME_MS:
          await r.fill(8);
          expiresAt = Number(r.buf.readBigInt64LE(r.pos));
          r.pos += 8;
          if (keyStart < 0) keyStart = at;
          break;
        case OP.EXPIRETIME:
          await r.fill(4);
          expiresAt = r.buf.readInt32LE(r.pos) * 1000;
          r.pos += 4;
          if (keyStart < 0) keyStart = at;
          break;
        case OP.IDLE:
          await this.len();
          if (keyStart < 0) keyStart = at;
          break;
        case OP.FREQ:
          await r.skip(1);
          if (keyStart < 0) keyStart = at;
          break;
        case OP.SELECTDB:
          this.db = await this.len();
          this.visitor.selectDb?.(this.db);
          break;
        case OP.RESIZEDB: {
          const keys = await this.len();
          const expires = await this.len();
          this.visitor.resizeDb?.(this.db, keys, expires);
          break;
        }
        case OP.AUX: {
          const name = (await this.readString()).toString('latin1');
          const value = await this.readString();
          this.visitor.aux?.(name, value);
          break;
        }
        case OP.MODULE_AUX: {
          const { name, version } = await this.moduleId();
          const start = r.offset;
          const whenOp = await this.len();
          if (whenOp !== MODULE_OP.UINT) throw this.corrupt(`module aux of ${name}: its "when" is not an unsigned integer`, start);
          await this.len();
          await this.moduleItems(name);
          this.visitor.moduleAux?.(name, version, r.offset - at);
          break;
        }
        case OP.FUNCTION2: {
          await this.skipString();
          this.visitor.functionLibrary?.(this.sLen);
          break;
        }
        case OP.FUNCTION_PRE_GA:
          throw new RdbError(
            'unsupported',
            `functions in the Redis 7.0 release-candidate format at byte ${at}: load and save the file with Redis 7.0 GA or later first`,
            at,
            this.version,
          );
        case OP.SLOT_INFO: {
          const slot = await this.len();
          const keys = await this.len();
          const expires = await this.len();
          this.visitor.slotInfo?.(slot, keys, expires);
          break;
        }
        case OP.EOF:
          return await this.trailer();
        default:
          throw new RdbError('unknown-opcode', `unknown opcode ${t} at byte ${at}`, at, this.version);
      }
    }
  }

  private async header(): Promise<void> {
    const r = this.r;
    const have = await r.fillUpTo(9);
    if (have < 5 || r.buf.toString('latin1', r.pos, r.pos + 5) !== 'REDIS') {
      throw new RdbError('not-rdb', 'not an RDB file: it does not start with "REDIS" (byte 0)', 0, 0);
    }
    const digits = have < 9 ? '' : r.buf.toString('latin1', r.pos + 5, r.pos + 9);
    if (!/^\d{4}$/.test(digits)) throw new RdbError('not-rdb', 'not an RDB file: no 4-digit version after "REDIS" (byte 5)', 5, 0);
    this.version = Number(digits);
    r.pos += 9;
    if (this.version < 1 || (this.version > MAX_REDIS_RDB_VERSION && this.version !== VALKEY_RDB_VERSION)) {
      throw new RdbError(
        'unsupported',
        `RDB version ${this.version} is newer than this reader knows (Redis up to ${MAX_REDIS_RDB_VERSION}, Valkey ${VALKEY_RDB_VERSION}) (byte 5)`,
        5,
        0,
      );
    }
  }

  private async trailer(): Promise<RdbSummary> {
    const r = this.r;
    let checksum: RdbSummary['checksum'] = 'absent';
    if (this.version >= FIRST_CHECKSUMMED_VERSION) {
      r.crcToHere();
      const at = r.offset;
      if ((await r.fillUpTo(8)) < 8) throw r.truncated(at + r.avail());
      const b = r.buf;
      const p = r.pos;
      const zero = (b[p]! | b[p + 1]! | b[p + 2]! | b[p + 3]! | b[p + 4]! | b[p + 5]! | b[p + 6]! | b[p + 7]!) === 0;
      if (zero) checksum = 'disabled';
      else if (r.crc === undefined) checksum = 'skipped';
      else if (r.crc.equals(b, p)) checksum = 'ok';
      else {
        const stored = Buffer.from(b.subarray(p, p + 8))
          .reverse()
          .toString('hex');
        throw new RdbError(
          'checksum',
          `the RDB's checksum (byte ${at}) is ${stored} but its content gives ${r.crc.hex()}: the file is corrupt`,
          at,
          this.version,
        );
      }
      r.pos += 8;
    }
    this.visitor.progress?.(r.offset, this.keys);
    return { rdbVersion: this.version, bytes: r.offset, keys: this.keys, checksum };
  }

  private async keyValue(t: number, typeAt: number, start: number, expiresAt: number | null): Promise<void> {
    this.resetRecord(await this.readString(), expiresAt);
    await this.value(t, typeAt);
    this.emit(start);
  }

  /**
   * The same for a key whose bytes are all in the current chunk and whose value is a string or a
   * single compact blob (most keys of most files), without a promise: false, with nothing
   * consumed, sends it down the async path instead.
   */
  private keyValueHere(t: number, start: number, expiresAt: number | null): boolean {
    const r = this.r;
    const p0 = r.pos;
    if (!this.strHead() || this.sKind !== RAW || r.buf.length - r.pos < this.sStored) {
      r.pos = p0;
      return false;
    }
    const key = r.buf.subarray(r.pos, r.pos + this.sStored);
    r.pos += this.sStored;
    this.resetRecord(key, expiresAt);
    const done = this.valueHere(t);
    if (!done) {
      r.pos = p0;
      return false;
    }
    this.emit(start);
    return true;
  }

  /** The value types common enough to deserve a synchronous path; false when not all here (or another type). */
  private valueHere(t: number): boolean {
    const rec = this.rec;
    switch (t) {
      case T.STRING:
        return this.stringHere();
      case T.LIST_QUICKLIST_2:
        return this.quicklistHere(true);
      case T.SET:
        rec.type = 'set';
        rec.encoding = 'hashtable';
        return this.elementsHere(1);
      case T.HASH:
        rec.type = 'hash';
        rec.encoding = 'hashtable';
        return this.elementsHere(2);
      default: {
        const single = SINGLE_BLOB[t];
        return single !== undefined && this.singleHere(single);
      }
    }
  }

  private resetRecord(key: Buffer, expiresAt: number | null): void {
    const rec = this.rec;
    rec.key = key;
    rec.db = this.db;
    rec.expiresAt = expiresAt;
    rec.length = 0;
    rec.valueBytes = 0;
    rec.largestElement = 0;
    rec.nodes = 0;
    rec.compressed = false;
    rec.fieldsWithTtl = 0;
    rec.groups = 0;
    rec.pending = 0;
    rec.moduleName = '';
    rec.moduleVersion = 0;
  }

  private emit(start: number): void {
    const r = this.r;
    this.rec.serializedBytes = r.offset - start;
    this.keys++;
    this.visitor.key?.(this.rec);
    if (r.offset >= this.nextProgress) {
      this.nextProgress = r.offset + PROGRESS_EVERY;
      this.visitor.progress?.(r.offset, this.keys);
    }
  }

  /** A string value wholly at `pos`; false when it is not all here. */
  private stringHere(): boolean {
    const r = this.r;
    if (!this.strHead() || r.buf.length - r.pos < this.sStored) return false;
    this.noteString();
    r.pos += this.sStored;
    return true;
  }

  /** A compact blob value wholly at `pos`; false when it is not all here (or too big to walk). */
  private singleHere([type, encoding, kind, per]: SingleBlob): boolean {
    const r = this.r;
    if (!this.strHead() || this.sKind === INT || this.sStored > WALK_MAX || r.buf.length - r.pos < this.sStored) return false;
    const at = r.offset;
    this.checkBlob(kind, at);
    this.rec.type = type;
    this.rec.encoding = encoding;
    this.setLength(this.blobHere(kind, at), per);
    return true;
  }

  private setLength(count: number, per: number): void {
    const rec = this.rec;
    if (count % per !== 0) throw this.corrupt(`a ${rec.encoding} ${rec.type} holds ${count} entries, not a multiple of ${per}`, this.r.offset);
    rec.length = count / per;
  }

  private async value(t: number, typeAt: number): Promise<void> {
    const rec = this.rec;
    const single = SINGLE_BLOB[t];
    if (single !== undefined) return this.single(single);
    switch (t) {
      case T.STRING:
        return this.stringValue();
      case T.LIST:
        rec.type = 'list';
        rec.encoding = 'linkedlist';
        rec.length = await this.elements(1);
        return;
      case T.SET:
        rec.type = 'set';
        rec.encoding = 'hashtable';
        rec.length = await this.elements(1);
        return;
      case T.HASH:
        rec.type = 'hash';
        rec.encoding = 'hashtable';
        rec.length = await this.elements(2);
        return;
      case T.ZSET:
      case T.ZSET_2:
        rec.type = 'zset';
        rec.encoding = 'skiplist';
        rec.length = await this.zsetElements(t === T.ZSET_2);
        return;
      case T.HASH_LISTPACK_EX:
      case T.HASH_LISTPACK_EX_PRE_GA:
        if (t === T.HASH_LISTPACK_EX) await this.r.skip(8); // the smallest field TTL
        await this.single(['hash', 'listpackex', 'listpack', 3]);
        return;
      case T.HASH_METADATA:
      case T.HASH_METADATA_PRE_GA:
        if (this.version >= VALKEY_RDB_VERSION) break; // Valkey's type 22 is another format
        return this.hashWithTtls(t === T.HASH_METADATA);
      case T.LIST_QUICKLIST:
      case T.LIST_QUICKLIST_2:
        return this.quicklist(t === T.LIST_QUICKLIST_2);
      case T.STREAM_LISTPACKS:
      case T.STREAM_LISTPACKS_2:
      case T.STREAM_LISTPACKS_3:
        rec.type = 'stream';
        rec.encoding = t === T.STREAM_LISTPACKS ? 'listpacks1' : t === T.STREAM_LISTPACKS_2 ? 'listpacks2' : 'listpacks3';
        return skipStream(this, t === T.STREAM_LISTPACKS ? 1 : t === T.STREAM_LISTPACKS_2 ? 2 : 3);
      case T.MODULE_2: {
        rec.type = 'module';
        rec.encoding = 'module';
        const { name, version } = await this.moduleId();
        rec.moduleName = name;
        rec.moduleVersion = version;
        await this.moduleItems(name);
        return;
      }
      case T.MODULE_PRE_GA:
        throw new RdbError(
          'unsupported',
          `a module value in the Redis 4.0 release-candidate format at byte ${typeAt}: it cannot be skipped without its module`,
          typeAt,
          this.version,
        );
    }
    throw new RdbError('unknown-type', `unknown value type ${t} at byte ${typeAt}`, typeAt, this.version);
  }

  private async stringValue(): Promise<void> {
    const r = this.r;
    if (!this.strHead()) await this.strHeadSlow();
    // A short text value is looked at to tell an integer; the rest is skipped unread.
    if (this.sKind === RAW && this.sLen <= 20) await r.fill(this.sLen);
    this.noteString();
    await r.skip(this.sStored);
  }

  /** Record a string value from its header (and its bytes at `pos` when it is short text). */
  private noteString(): void {
    const rec = this.rec;
    rec.type = 'string';
    rec.length = this.sLen;
    rec.valueBytes = this.sLen;
    rec.largestElement = this.sLen;
    rec.compressed = this.sKind === LZF;
    if (this.sKind === INT) rec.encoding = 'int';
    // Redis stores integers beyond 32 bits as text, and turns them back into `int` on load.
    else if (this.sKind === RAW && this.sLen <= 20) rec.encoding = isInt64Text(this.r.buf, this.r.pos, this.r.pos + this.sLen) ? 'int' : 'embstr';
    else rec.encoding = this.sLen <= 44 ? 'embstr' : 'raw';
  }

  /** `n` entries of `per` strings each (a hashtable set, hash or linked list): sizes seen, values skipped. */
  private async elements(per: number): Promise<number> {
    const n = await this.len();
    for (let i = n * per; i > 0; i--) if (!this.skipStringFast()) await this.skipString();
    return n;
  }

  private async zsetElements(binary: boolean): Promise<number> {
    const r = this.r;
    const n = await this.len();
    for (let i = 0; i < n; i++) {
      if (!this.skipStringFast()) await this.skipString();
      if (binary) {
        if (r.avail() >= 8) r.pos += 8;
        else await r.skip(8);
      } else {
        // Text score: a length byte, or 253/254/255 for nan/+inf/-inf with nothing after.
        if (r.avail() < 1) await r.fill(1);
        const l = r.buf[r.pos++]!;
        if (l < 253) await r.skip(l);
      }
    }
    return n;
  }

  /** Hash with field TTLs saved field by field (RDB_TYPE_HASH_METADATA): per field a TTL, the field and its value. */
  private async hashWithTtls(minExpireFirst: boolean): Promise<void> {
    const rec = this.rec;
    rec.type = 'hash';
    rec.encoding = 'hashtable-ttl';
    if (minExpireFirst) await this.r.skip(8);
    const n = await this.len();
    for (let i = 0; i < n; i++) {
      if ((await this.len()) !== 0) rec.fieldsWithTtl++;
      if (!this.skipStringFast()) await this.skipString();
      if (!this.skipStringFast()) await this.skipString();
    }
    rec.length = n;
  }

  private async single([type, encoding, kind, per]: SingleBlob): Promise<void> {
    this.rec.type = type;
    this.rec.encoding = encoding;
    this.setLength(await this.blob(kind), per);
  }

  /** A quicklist wholly in the current chunk, without a promise; false when it is not all here. */
  private quicklistHere(v2: boolean): boolean {
    const rec = this.rec;
    rec.type = 'list';
    rec.encoding = v2 ? 'quicklist2' : 'quicklist';
    const nodes = this.lenFast();
    if (nodes < 0) return false;
    let length = 0;
    for (let i = 0; i < nodes; i++) {
      const container = v2 ? this.lenFast() : QUICKLIST_NODE.PACKED;
      if (container === QUICKLIST_NODE.PLAIN) {
        if (!this.skipStringFast()) return false;
        rec.nodes++;
        length++;
      } else if (container === QUICKLIST_NODE.PACKED) {
        const r = this.r;
        const kind = v2 ? 'listpack' : 'ziplist';
        if (!this.strHead() || this.sKind === INT || this.sStored > WALK_MAX || r.buf.length - r.pos < this.sStored) return false;
        const at = r.offset;
        this.checkBlob(kind, at);
        length += this.blobHere(kind, at);
      } else {
        return false; // not all here, or a bad container the async path reports
      }
    }
    rec.length = length;
    return true;
  }

  /** `n` entries of `per` strings each, wholly in the current chunk; false when they are not all here. */
  private elementsHere(per: number): boolean {
    const n = this.lenFast();
    if (n < 0) return false;
    for (let i = n * per; i > 0; i--) if (!this.skipStringFast()) return false;
    this.rec.length = n;
    return true;
  }

  private async quicklist(v2: boolean): Promise<void> {
    const rec = this.rec;
    rec.type = 'list';
    rec.encoding = v2 ? 'quicklist2' : 'quicklist';
    const nodes = await this.len();
    let length = 0;
    for (let i = 0; i < nodes; i++) {
      const container = v2 ? await this.len() : QUICKLIST_NODE.PACKED;
      if (container === QUICKLIST_NODE.PLAIN) {
        // One big element stored as itself (skipString notes its size).
        await this.skipString();
        rec.nodes++;
        length++;
      } else if (container === QUICKLIST_NODE.PACKED) {
        length += await this.blob(v2 ? 'listpack' : 'ziplist');
      } else {
        throw this.corrupt(`quicklist node container ${container}`, this.r.offset);
      }
    }
    rec.length = length;
  }

  /**
   * A compact blob (saved as one string): its count from the header, decompressing only the
   * header's bytes where it is LZF, and walked for the largest element where that is cheap.
   */
  async blob(kind: BlobKind): Promise<number> {
    const r = this.r;
    const rec = this.rec;
    if (!this.strHead()) await this.strHeadSlow();
    const at = r.offset;
    this.checkBlob(kind, at);
    const size = this.sLen;
    const stored = this.sStored;
    if (stored <= WALK_MAX) {
      await r.fill(stored);
      return this.blobHere(kind, at);
    }
    // A big blob: only its header is read (decompressed where LZF), unless a walk is the only way to count.
    const need = HEADER_BYTES[kind];
    rec.nodes++;
    rec.valueBytes += size;
    let count: number;
    if (this.sKind === RAW) {
      await r.fill(need);
      count = headerCount(kind, r.buf, r.pos);
    } else {
      rec.compressed = true;
      const peek = Math.min(stored, 2 * need + 2);
      await r.fill(peek);
      count = this.lzfHeaderCount(kind, peek, at);
    }
    if (count < 0 || (this.sKind === LZF && this.opts.deep === true)) {
      await r.fill(stored);
      count = this.walkHere(kind, at);
    } else {
      rec.largestElement = -1;
    }
    await r.skip(stored);
    return count;
  }

  private checkBlob(kind: BlobKind, at: number): void {
    if (this.sKind === INT) throw this.corrupt(`a ${kind} saved as an integer`, at);
    if (this.sLen < HEADER_BYTES[kind]) throw this.corrupt(`a ${kind} of ${this.sLen} bytes`, at);
  }

  /** A blob whose stored bytes are all at `pos` (its header read): counted, noted on the record, consumed. */
  private blobHere(kind: BlobKind, at: number): number {
    const r = this.r;
    const rec = this.rec;
    const stored = this.sStored;
    rec.nodes++;
    rec.valueBytes += this.sLen;
    let count: number;
    if (this.sKind === RAW || this.opts.deep === true) {
      count = this.walkHere(kind, at);
    } else {
      rec.compressed = true;
      count = this.lzfHeaderCount(kind, Math.min(stored, 2 * HEADER_BYTES[kind] + 2), at);
      if (count < 0) count = this.walkHere(kind, at);
      else rec.largestElement = -1;
    }
    r.pos += stored;
    return count;
  }

  /** Walk the blob at `pos` (decompressing it whole if LZF) without consuming it; notes the largest element. */
  private walkHere(kind: BlobKind, at: number): number {
    const r = this.r;
    const rec = this.rec;
    let ok: boolean;
    if (this.sKind === RAW) {
      ok = walkBlob(kind, r.buf, r.pos, r.pos + this.sStored);
    } else {
      rec.compressed = true;
      const full = this.scratchFor(this.sLen);
      if (lzfDecompress(r.buf, r.pos, r.pos + this.sStored, full) !== this.sLen) throw this.corrupt(`an LZF-compressed ${kind} that does not decompress`, at);
      ok = walkBlob(kind, full, 0, this.sLen);
    }
    if (!ok) throw this.corrupt(`a malformed ${kind}`, at);
    if (rec.largestElement >= 0 && walked.largest > rec.largestElement) rec.largestElement = walked.largest;
    return walked.count;
  }

  /** The count in an LZF blob's header, decompressing only the header from the `peek` bytes at `pos`. */
  private lzfHeaderCount(kind: BlobKind, peek: number, at: number): number {
    const r = this.r;
    const need = HEADER_BYTES[kind];
    // Each output byte costs at most two input bytes (one-byte literals), so `peek` holds the header;
    // the room past it is for a last back-reference, which may run up to 264 bytes.
    const out = this.scratchFor(need + 264);
    if (lzfDecompress(r.buf, r.pos, r.pos + peek, out, need) < need) throw this.corrupt(`an LZF-compressed ${kind} that does not decompress`, at);
    return headerCount(kind, out, 0);
  }

  /** Typed items of a module value or module aux, up to their EOF marker. */
  private async moduleItems(name: string): Promise<void> {
    const r = this.r;
    for (;;) {
      const at = r.offset;
      const op = await this.len();
      switch (op) {
        case MODULE_OP.EOF:
          return;
        case MODULE_OP.SINT:
        case MODULE_OP.UINT:
          await this.len();
          break;
        case MODULE_OP.FLOAT:
          await r.skip(4);
          break;
        case MODULE_OP.DOUBLE:
          await r.skip(8);
          break;
        case MODULE_OP.STRING:
          await this.skipString(); // counted on the record as an element
          break;
        default:
          throw this.corrupt(`module ${name}: unknown item opcode ${op}`, at);
      }
    }
  }

  /** A module type id: 54 bits of name (nine 6-bit characters) and 10 bits of encoding version. */
  private async moduleId(): Promise<{ name: string; version: number }> {
    const r = this.r;
    if (r.avail() < 9) await r.fillUpTo(9);
    const first = r.buf[r.pos]!;
    if (first !== 0x81) {
      // Ids are 64-bit, but a short length encoding is legal for a small one.
      const n = await this.len();
      return { name: moduleName(BigInt(n)), version: n & 1023 };
    }
    if (r.avail() < 9) throw r.truncated(r.offset + r.avail());
    const id = r.buf.readBigUInt64BE(r.pos + 1);
    r.pos += 9;
    return { name: moduleName(id), version: Number(id & 1023n) };
  }

  // ---- lengths and strings ----

  /** A length at `pos`, consumed; -1 (nothing consumed) when its bytes are not all here. */
  lenFast(): number {
    const r = this.r;
    const b = r.buf;
    const p = r.pos;
    const left = b.length - p;
    if (left < 1) return -1;
    const first = b[p]!;
    switch (first >>> 6) {
      case 0:
        r.pos = p + 1;
        return first;
      case 1:
        if (left < 2) return -1;
        r.pos = p + 2;
        return ((first & 0x3f) << 8) | b[p + 1]!;
      case 2:
        if (first === 0x80) {
          if (left < 5) return -1;
          r.pos = p + 5;
          return b.readUInt32BE(p + 1);
        }
        if (first === 0x81) {
          if (left < 9) return -1;
          r.pos = p + 9;
          return Number(b.readBigUInt64BE(p + 1));
        }
        throw this.corrupt(`length encoding byte ${first}`, r.offset);
      default:
        throw this.corrupt(`an encoded value where a length belongs (byte ${first})`, r.offset);
    }
  }

  async len(): Promise<number> {
    let n = this.lenFast();
    if (n >= 0) return n;
    await this.r.fillUpTo(9);
    n = this.lenFast();
    if (n < 0) throw this.r.truncated(this.r.offset + this.r.avail());
    return n;
  }

  /** A string header at `pos`, consumed into sKind/sLen/sStored/sInt; false (nothing consumed) when not all here. */
  strHead(): boolean {
    const r = this.r;
    const b = r.buf;
    const p = r.pos;
    const left = b.length - p;
    if (left < 1) return false;
    const first = b[p]!;
    if (first >>> 6 !== 3) {
      const n = this.lenFast();
      if (n < 0) return false;
      this.sKind = RAW;
      this.sLen = n;
      this.sStored = n;
      return true;
    }
    switch (first & 0x3f) {
      case ENC.INT8:
        if (left < 2) return false;
        this.sInt = b.readInt8(p + 1);
        return this.intHead(p + 2);
      case ENC.INT16:
        if (left < 3) return false;
        this.sInt = b.readInt16LE(p + 1);
        return this.intHead(p + 3);
      case ENC.INT32:
        if (left < 5) return false;
        this.sInt = b.readInt32LE(p + 1);
        return this.intHead(p + 5);
      case ENC.LZF: {
        r.pos = p + 1;
        const clen = this.lenFast();
        const len = clen < 0 ? -1 : this.lenFast();
        if (len < 0) {
          r.pos = p;
          return false;
        }
        this.sKind = LZF;
        this.sStored = clen;
        this.sLen = len;
        return true;
      }
      default:
        throw this.corrupt(`string encoding ${first & 0x3f}`, r.offset);
    }
  }

  private intHead(end: number): boolean {
    this.r.pos = end;
    this.sKind = INT;
    this.sStored = 0;
    this.sLen = decimalLength(this.sInt);
    return true;
  }

  async strHeadSlow(): Promise<void> {
    await this.r.fillUpTo(19);
    if (!this.strHead()) throw this.r.truncated(this.r.offset + this.r.avail());
  }

  /** Skip a whole string when header and body are both here, noting its size on the record; false when not. */
  skipStringFast(): boolean {
    const r = this.r;
    const p = r.pos;
    if (!this.strHead()) return false;
    if (r.buf.length - r.pos < this.sStored) {
      r.pos = p;
      return false;
    }
    r.pos += this.sStored;
    this.noteElement();
    return true;
  }

  async skipString(): Promise<void> {
    if (!this.strHead()) await this.strHeadSlow();
    await this.r.skip(this.sStored);
    this.noteElement();
  }

  private noteElement(): void {
    const rec = this.rec;
    rec.valueBytes += this.sLen;
    if (this.sKind === LZF) rec.compressed = true;
    if (this.sLen > rec.largestElement && rec.largestElement >= 0) rec.largestElement = this.sLen;
  }

  /** A whole string's bytes (keys, aux fields): a view valid until the next read, LZF and integers decoded into scratch. */
  async readString(): Promise<Buffer> {
    const r = this.r;
    if (!this.strHead()) await this.strHeadSlow();
    if (this.sKind === INT) {
      const text = String(this.sInt);
      const out = this.scratchFor(text.length);
      out.write(text, 0, 'latin1');
      return out.subarray(0, text.length);
    }
    const at = r.offset;
    await r.fill(this.sStored);
    const start = r.pos;
    r.pos += this.sStored;
    if (this.sKind === RAW) return r.buf.subarray(start, start + this.sStored);
    const out = this.scratchFor(this.sLen);
    if (lzfDecompress(r.buf, start, start + this.sStored, out) !== this.sLen) throw this.corrupt('an LZF-compressed string that does not decompress', at);
    return out.subarray(0, this.sLen);
  }

  private scratchFor(n: number): Buffer {
    if (this.scratch.length < n) this.scratch = Buffer.alloc(Math.max(n, this.scratch.length * 2));
    return this.scratch;
  }

  corrupt(what: string, at: number): RdbError {
    return new RdbError('corrupt', `corrupt RDB: ${what} at byte ${at}`, at, this.version);
  }
}

function moduleName(id: bigint): string {
  let name = '';
  for (let i = 0; i < 9; i++) name += MODULE_NAME_CHARSET[Number((id >> BigInt(64 - 6 * (i + 1))) & 63n)];
  return name;
}

function decimalLength(v: number): number {
  let n = v < 0 ? 2 : 1;
  for (let a = Math.abs(v); a >= 10; a = Math.floor(a / 10)) n++;
  return n;
}

/** Redis's string2ll as tryObjectEncoding uses it: canonical decimal, no sign on 0, within int64. */
function isInt64Text(b: Uint8Array, start: number, end: number): boolean {
  const len = end - start;
  if (len === 0 || len > 20) return false;
  let p = start;
  const negative = b[p] === 45;
  if (negative) p++;
  if (p === end) return false;
  if (b[p] === 48) return end - p === 1 && !negative; // "0" alone; "-0" and leading zeros are text
  for (let i = p; i < end; i++) if (b[i]! < 48 || b[i]! > 57) return false;
  const digits = end - p;
  if (digits < 19) return true;
  if (digits > 19) return false;
  const text = Buffer.from(b.subarray(p, end)).toString('latin1');
  return text <= (negative ? '9223372036854775808' : '9223372036854775807');
}

/** A blank key record: the one the parser reuses for every key (and what a test fills the same way). */
export function newKeyRecord(): RdbKeyRecord {
  return {
    db: 0,
    key: Buffer.alloc(0),
    type: 'string',
    encoding: 'raw',
    length: 0,
    expiresAt: null,
    serializedBytes: 0,
    valueBytes: 0,
    largestElement: 0,
    nodes: 0,
    compressed: false,
    fieldsWithTtl: 0,
    groups: 0,
    pending: 0,
    moduleName: '',
    moduleVersion: 0,
  };
}
