import { describe, expect, it } from 'vitest';
import { Crc64 } from './crc64';
import { RdbError, parseRdb, type RdbKeyRecord, type RdbSummary } from './index';
import { MODULE_NAME_CHARSET, MODULE_OP, OP, T } from './rdbFormat';

/**
 * Hand-built RDB bytes, FROM THE FORMAT DOCUMENTATION (Redis's rdb.h/rdb.c, ziplist.c, zipmap.c,
 * listpack.c, intset.c, lzf_d.c), not from a server: for the encodings Redis 7.0 no longer writes
 * (zipmap, ziplist, quicklist v1, linked lists, text scores), the ones newer servers write (set
 * listpacks, hash field TTLs, stream v3), module values and the opcodes around keys. The files a
 * real redis-server writes are tested in rdbParser.test.ts.
 */

const u8 = (...b: number[]): Buffer => Buffer.from(b);
const le32 = (n: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
};
const le64 = (n: number): Buffer => {
  const b = Buffer.alloc(8);
  b.writeBigInt64LE(BigInt(n));
  return b;
};

/** rdbSaveLen: 6-bit, 14-bit, 32-bit big-endian. */
function len(n: number): Buffer {
  if (n < 64) return u8(n);
  if (n < 16384) return u8(0x40 | (n >> 8), n & 0xff);
  const b = Buffer.alloc(5);
  b[0] = 0x80;
  b.writeUInt32BE(n, 1);
  return b;
}
/** rdbSaveRawString without compression. */
const str = (s: string | Buffer): Buffer => {
  const b = typeof s === 'string' ? Buffer.from(s, 'latin1') : s;
  return Buffer.concat([len(b.length), b]);
};
/** LZF made of literal runs only (valid LZF, as lzf_d.c reads it): ctrl = run length - 1, at most 32. */
function lzfLiteral(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let i = 0; i < raw.length; i += 32) {
    const run = raw.subarray(i, i + 32);
    parts.push(u8(run.length - 1), run);
  }
  return Buffer.concat(parts);
}
/** An LZF-encoded string: 0xC3, compressed length, uncompressed length, data. */
const lzfStr = (raw: Buffer, compressed = lzfLiteral(raw)): Buffer => Buffer.concat([u8(0xc3), len(compressed.length), len(raw.length), compressed]);

/** listpack.c: strings up to 63 bytes (0x80|len) and 7-bit integers, each with its 1-byte backlen. */
function listpack(entries: (string | number)[], countField = entries.length): Buffer {
  const body = entries.map((e) => {
    if (typeof e === 'number') return u8(e, 1);
    const d = Buffer.from(e, 'latin1');
    return Buffer.concat([u8(0x80 | d.length), d, u8(1 + d.length)]);
  });
  const content = Buffer.concat([...body, u8(0xff)]);
  const head = Buffer.alloc(6);
  head.writeUInt32LE(6 + content.length);
  head.writeUInt16LE(countField, 4);
  return Buffer.concat([head, content]);
}

/** ziplist.c: short strings (00pppppp) and 4-bit immediates 0..12 (0xF1 + value), each after its prevlen. */
function ziplist(entries: (string | number)[]): Buffer {
  const body: Buffer[] = [];
  let prev = 0;
  let tail = 10;
  for (const e of entries) {
    const enc = typeof e === 'number' ? u8(0xf1 + e) : Buffer.concat([u8(Buffer.byteLength(e)), Buffer.from(e, 'latin1')]);
    const entry = Buffer.concat([u8(prev), enc]);
    tail += body.length === 0 ? 0 : prev;
    body.push(entry);
    prev = entry.length;
  }
  const content = Buffer.concat([...body, u8(0xff)]);
  const head = Buffer.alloc(10);
  head.writeUInt32LE(10 + content.length);
  head.writeUInt32LE(tail, 4);
  head.writeUInt16LE(entries.length, 8);
  return Buffer.concat([head, content]);
}

/** zipmap.c: <zmlen><len>key<len><free>value … 0xFF. */
function zipmap(pairs: [string, string][], zmlen = pairs.length): Buffer {
  const body = pairs.map(([k, v]) => Buffer.concat([u8(k.length), Buffer.from(k), u8(v.length, 0), Buffer.from(v)]));
  return Buffer.concat([u8(zmlen), ...body, u8(0xff)]);
}

/** intset.c: <encoding u32><length u32><sorted values>. */
function intset(width: 2 | 4 | 8, values: number[]): Buffer {
  const body = Buffer.alloc(width * values.length);
  values.forEach((v, i) => body.writeIntLE(v, i * width, Math.min(width, 6)));
  return Buffer.concat([le32(width), le32(values.length), body]);
}

/** A module type id: nine 6-bit characters of name, then 10 bits of encoding version, saved as a 64-bit length. */
function moduleId(name: string, version: number): Buffer {
  let id = 0n;
  for (const ch of name) id = (id << 6n) | BigInt(MODULE_NAME_CHARSET.indexOf(ch));
  id = (id << 10n) | BigInt(version);
  const b = Buffer.alloc(9);
  b[0] = 0x81;
  b.writeBigUInt64BE(id, 1);
  return b;
}

/** "REDIS" + version, the body, EOF and the CRC-64 (or zeros when `checksum` is false, as rdbchecksum no writes). */
function rdb(version: number, body: Buffer[], checksum = true): Buffer {
  const head = Buffer.from(`REDIS${String(version).padStart(4, '0')}`, 'latin1');
  const content = Buffer.concat([head, ...body, u8(OP.EOF)]);
  if (version < 5) return content;
  const crc = new Crc64();
  crc.update(content);
  const sum = Buffer.alloc(8);
  if (checksum) {
    sum.writeUInt32LE(crc.lo);
    sum.writeUInt32LE(crc.hi, 4);
  }
  return Buffer.concat([content, sum]);
}
const key = (type: number, name: string, value: Buffer): Buffer => Buffer.concat([u8(type), str(name), value]);

async function parse(
  bytes: Buffer,
  chunk = bytes.length || 1,
  deep = false,
): Promise<{ keys: (Omit<RdbKeyRecord, 'key'> & { key: string })[]; events: string[]; summary: RdbSummary }> {
  const keys: (Omit<RdbKeyRecord, 'key'> & { key: string })[] = [];
  const events: string[] = [];
  async function* chunks(): AsyncGenerator<Buffer> {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  }
  const summary = await parseRdb(
    chunks(),
    {
      key: (r) => keys.push({ ...r, key: r.key.toString('latin1') }),
      aux: (n, v) => events.push(`aux ${n}=${v.toString('latin1')}`),
      selectDb: (db) => events.push(`select ${db}`),
      resizeDb: (db, k, e) => events.push(`resize ${db} ${k} ${e}`),
      functionLibrary: (b) => events.push(`function ${b}`),
      slotInfo: (s, k, e) => events.push(`slot ${s} ${k} ${e}`),
      moduleAux: (name, v) => events.push(`module-aux ${name}/${v}`),
    },
    { deep },
  );
  return { keys, events, summary };
}

async function failure(bytes: Buffer): Promise<RdbError> {
  try {
    await parse(bytes);
  } catch (err) {
    if (err instanceof RdbError) return err;
    throw err;
  }
  throw new Error('the parse did not fail');
}

describe('RDB encodings from the format documentation (hand-built bytes)', () => {
  it('reads the older encodings Redis 7.0 converts on load: zipmap, ziplists, quicklist v1, linked lists, text scores', async () => {
    const { keys, summary } = await parse(
      rdb(9, [
        u8(OP.SELECTDB, 0),
        key(
          T.HASH_ZIPMAP,
          'zipmap',
          str(
            zipmap([
              ['foo', 'bar'],
              ['a', 'bcd'],
            ]),
          ),
        ),
        key(T.HASH_ZIPMAP, 'zipmap-walked', str(zipmap([['x', 'y']], 254))),
        key(T.LIST_ZIPLIST, 'ziplist-list', str(ziplist(['ab', 5, 'cde']))),
        key(T.ZSET_ZIPLIST, 'ziplist-zset', str(ziplist(['a', 1, 'b', 2]))),
        key(T.HASH_ZIPLIST, 'ziplist-hash', str(ziplist(['f', 'v']))),
        key(T.LIST_QUICKLIST, 'quicklist-v1', Buffer.concat([len(2), str(ziplist(['a', 'b'])), lzfStr(ziplist(['c', 'd', 'e']))])),
        key(T.LIST, 'linked', Buffer.concat([len(2), str('one'), str('three')])),
        key(T.ZSET, 'text-scores', Buffer.concat([len(3), str('a'), str('1.5'), str('b'), u8(254), str('c'), u8(253)])),
        key(T.ZSET_2, 'binary-scores', Buffer.concat([len(1), str('m'), le64(0)])),
        key(T.SET, 'hashtable-set', Buffer.concat([len(2), str('m1'), u8(0xc0, 7)])),
        key(T.SET_INTSET, 'intset64', str(intset(8, [-1, 5_000_000_000]))),
      ]),
    );
    expect(summary).toMatchObject({ rdbVersion: 9, checksum: 'ok', keys: 11 });
    expect(keys.map((k) => [k.key, k.type, k.encoding, k.length])).toEqual([
      ['zipmap', 'hash', 'zipmap', 2],
      ['zipmap-walked', 'hash', 'zipmap', 1],
      ['ziplist-list', 'list', 'ziplist', 3],
      ['ziplist-zset', 'zset', 'ziplist', 2],
      ['ziplist-hash', 'hash', 'ziplist', 1],
      ['quicklist-v1', 'list', 'quicklist', 5],
      ['linked', 'list', 'linkedlist', 2],
      ['text-scores', 'zset', 'skiplist', 3],
      ['binary-scores', 'zset', 'skiplist', 1],
      ['hashtable-set', 'set', 'hashtable', 2],
      ['intset64', 'set', 'intset', 2],
    ]);
    expect(keys[0]).toMatchObject({ largestElement: 3, nodes: 1 });
    expect(keys[5]).toMatchObject({ nodes: 2, compressed: true, largestElement: -1 });
    expect(keys[6]).toMatchObject({ valueBytes: 8, largestElement: 5, nodes: 0 });
    expect(keys[9]).toMatchObject({ valueBytes: 3 }); // "m1" and the integer 7 as one digit
  });

  it('reads what newer servers write: set listpacks, hash field TTLs (RDB 12), stream v3 with groups', async () => {
    const streamV3 = Buffer.concat([
      len(1),
      str(Buffer.alloc(16)),
      str(listpack(['any', 'node'])),
      len(7), // XLEN
      len(100),
      len(0), // last ID
      len(1),
      len(0), // first ID
      len(0),
      len(0), // max deleted ID
      len(7), // entries added
      len(1), // groups
      str('group'),
      len(100),
      len(0),
      len(3), // entries read
      len(2), // PEL
      Buffer.alloc(16),
      le64(1),
      len(1),
      Buffer.alloc(16, 1),
      le64(2),
      len(4),
      len(1), // consumers
      str('alice'),
      le64(3), // seen
      le64(4), // active (v3)
      len(2),
      Buffer.alloc(32),
    ]);
    const { keys } = await parse(
      rdb(12, [
        key(T.SET_LISTPACK, 'set-lp', str(listpack(['a', 'b', 7]))),
        key(T.HASH_LISTPACK_EX, 'hash-lp-ttl', Buffer.concat([le64(1000), str(listpack(['f1', 'v1', 0, 'f2', 'v2', 5]))])),
        key(T.HASH_METADATA, 'hash-ttl', Buffer.concat([le64(1000), len(2), len(0), str('f'), str('v'), len(9), str('g'), str('w')])),
        key(T.STREAM_LISTPACKS_3, 'stream3', streamV3),
      ]),
    );
    expect(keys.map((k) => [k.key, k.type, k.encoding, k.length])).toEqual([
      ['set-lp', 'set', 'listpack', 3],
      ['hash-lp-ttl', 'hash', 'listpackex', 2],
      ['hash-ttl', 'hash', 'hashtable-ttl', 2],
      ['stream3', 'stream', 'listpacks3', 7],
    ]);
    expect(keys[2]?.fieldsWithTtl).toBe(1);
    expect(keys[3]).toMatchObject({ groups: 1, pending: 2, nodes: 1 });
  });

  it('reads LZF strings and LZF listpacks from their headers, and walks a listpack whose count is saturated', async () => {
    // lzf_d.c: a literal 'a', then a back-reference of 39 bytes one byte back (ctrl 0xE0, extra 30, offset 0).
    const run = u8(0x00, 0x61, 0xe0, 30, 0x00);
    const { keys } = await parse(
      rdb(10, [
        key(T.STRING, 'lzf', lzfStr(Buffer.alloc(40, 'a'), run)),
        key(T.HASH_LISTPACK, 'lzf-lp', lzfStr(listpack(['field-one', 'value-one', 'field-two', 'value-two']))),
        key(T.SET_LISTPACK, 'saturated', str(listpack(['a', 'b', 'c'], 0xffff))),
        key(T.STRING, 'int32', u8(0xc2, 0x40, 0x42, 0x0f, 0x00)),
        key(T.STRING, 'long-int-text', str('-9223372036854775808')),
      ]),
    );
    expect(keys.map((k) => [k.key, k.encoding, k.length, k.compressed])).toEqual([
      ['lzf', 'embstr', 40, true],
      ['lzf-lp', 'listpack', 2, true],
      ['saturated', 'listpack', 3, false],
      ['int32', 'int', 7, false], // 1000000: STRLEN counts its digits
      ['long-int-text', 'int', 20, false],
    ]);
  });

  it('tells the largest element of an LZF blob only when asked to decompress it (deep)', async () => {
    const bytes = rdb(10, [key(T.HASH_LISTPACK, 'lzf-lp', lzfStr(listpack(['f', 'a-longer-value', 'g', 'v'])))]);
    expect((await parse(bytes)).keys[0]).toMatchObject({ length: 2, largestElement: -1, compressed: true });
    expect((await parse(bytes, bytes.length, true)).keys[0]).toMatchObject({ length: 2, largestElement: 14, compressed: true });
  });

  it('reads module values and module aux by their typed items, with the module type name', async () => {
    const items = Buffer.concat([
      len(MODULE_OP.UINT),
      len(42),
      len(MODULE_OP.STRING),
      str('hello'),
      len(MODULE_OP.DOUBLE),
      le64(0),
      len(MODULE_OP.FLOAT),
      le32(0),
      len(MODULE_OP.SINT),
      len(1),
      len(MODULE_OP.EOF),
    ]);
    const { keys, events } = await parse(
      rdb(10, [
        u8(OP.MODULE_AUX),
        moduleId('MyModType', 3),
        len(MODULE_OP.UINT),
        len(2),
        items,
        key(T.MODULE_2, 'mod-key', Buffer.concat([moduleId('MyModType', 3), items])),
      ]),
    );
    expect(events).toEqual(['module-aux MyModType/3']);
    expect(keys[0]).toMatchObject({ key: 'mod-key', type: 'module', encoding: 'module', moduleName: 'MyModType', moduleVersion: 3, valueBytes: 5 });
  });

  it('reports aux fields, DB selectors, RESIZEDB, FUNCTION2, SLOT_INFO, and expiry in seconds and ms past IDLE and FREQ', async () => {
    const library = '#!lua name=lib\nredis.register_function("f", function() return 1 end)';
    const bytes = rdb(11, [
      u8(OP.AUX),
      str('redis-ver'),
      str('7.4.0'),
      u8(OP.AUX),
      str('ctime'),
      u8(0xc2, 0x00, 0x00, 0x00, 0x65),
      u8(OP.FUNCTION2),
      str(library),
      u8(OP.SELECTDB, 3),
      u8(OP.RESIZEDB, 2, 1),
      u8(OP.SLOT_INFO, 5, 2, 1),
      u8(OP.EXPIRETIME),
      le32(2_000_000_000),
      u8(OP.IDLE, 9),
      key(T.STRING, 'seconds', str('v')),
      u8(OP.EXPIRETIME_MS),
      le64(1_700_000_000_123),
      u8(OP.FREQ, 200),
      key(T.STRING, 'ms', str('w')),
    ]);
    const { keys, events } = await parse(bytes);
    expect(events).toEqual(['aux redis-ver=7.4.0', `aux ctime=${0x65000000}`, `function ${library.length}`, 'select 3', 'resize 3 2 1', 'slot 5 2 1']);
    expect(keys.map((k) => [k.db, k.key, k.expiresAt])).toEqual([
      [3, 'seconds', 2_000_000_000_000],
      [3, 'ms', 1_700_000_000_123],
    ]);
    // Serialized bytes include the expiry and idle opcodes before the key.
    expect(keys[0]?.serializedBytes).toBe(1 + 4 + 2 + 1 + 8 + 2);
    // Chunked one byte at a time: the same.
    expect((await parse(bytes, 1)).keys).toEqual(keys);
  });

  it('stops at an unknown type or an unknown version with the offset and version, never guessing', async () => {
    const head = rdb(10, [u8(OP.SELECTDB, 0), key(T.STRING, 'ok', str('v')), u8(200), str('k')]);
    const err = await failure(head);
    expect(err).toMatchObject({ kind: 'unknown-type', offset: 9 + 2 + 1 + 3 + 2 });
    expect(err.message).toBe('unknown value type 200 at byte 17 (RDB version 10)');
    expect(await failure(rdb(13, []))).toMatchObject({ kind: 'unsupported', offset: 5 });
    expect(await failure(rdb(80, [key(22, 'valkey-hash', str('?'))]))).toMatchObject({ kind: 'unknown-type' });
    expect(await failure(rdb(10, [key(T.MODULE_PRE_GA, 'm', u8(1))]))).toMatchObject({ kind: 'unsupported' });
  });

  it('says how the checksum stood: checked, disabled (zeros) or absent (before version 5)', async () => {
    expect((await parse(rdb(10, [key(T.STRING, 'a', str('b'))], false))).summary.checksum).toBe('disabled');
    expect((await parse(rdb(4, [key(T.STRING, 'a', str('b'))]))).summary.checksum).toBe('absent');
    const bad = rdb(10, [key(T.STRING, 'a', str('b'))]);
    bad[bad.length - 12]! ^= 1;
    expect(await failure(bad)).toMatchObject({ kind: 'checksum', offset: bad.length - 8 });
  });
});
