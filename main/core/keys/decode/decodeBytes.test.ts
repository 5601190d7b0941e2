import { encode } from '@msgpack/msgpack';
import { existsSync, readFileSync } from 'node:fs';
import zlib from 'node:zlib';
import lz4 from 'lz4js';
import { serialize } from 'php-serialize';
import protobuf from 'protobufjs/minimal.js';
import SnappyJS from 'snappyjs';
import { describe, expect, it } from 'vitest';
import type { DecodeAs, DecodeCompression } from '../../../../app/schemas/keys';
import { escapeBytes } from '../../text/escapeBytes';
import { decodeBytes } from './decodeBytes';
import { DECODE_LIMITS, type DecodeLimits } from './decodeLimits';
import { SNAPPY_FRAME_MAGIC } from './snappyFrames';

const fixture = (name: string): Buffer => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

function decode(
  bytes: Uint8Array,
  as: DecodeAs = 'auto',
  compression: DecodeCompression = 'auto',
  limits: Partial<DecodeLimits> = {},
  valueBytes = bytes.length,
) {
  return decodeBytes({ bytes, as, compression, valueBytes, limits: { ...DECODE_LIMITS, ...limits } });
}

/** The JSON rendering of a plain value, as the renderer prints it (keys quoted, 2-space indent). */
const pretty = (v: unknown): string => JSON.stringify(v, null, 2).replace(/"(\w+)": /g, '"$1": ');

/** A framed snappy stream of one compressed chunk (CRC left zero: the reader does not check it). */
function snappyFramed(data: Buffer): Buffer {
  const block = Buffer.from(SnappyJS.compress(data));
  const header = Buffer.alloc(8);
  header[0] = 0x00;
  header.writeUIntLE(block.length + 4, 1, 3);
  return Buffer.concat([SNAPPY_FRAME_MAGIC, header, block]);
}

describe('decodeBytes: each format from its own encoder', () => {
  const doc = { user: 'ada', tags: ['a', 'b'], n: 42, nested: { ok: true, none: null } };

  it('json: detected and pretty-printed; a parse error names the position', () => {
    const r = decode(Buffer.from(JSON.stringify(doc)));
    expect(r).toMatchObject({ format: 'json', compression: null, error: null, truncated: false });
    expect(r.text).toBe(pretty(doc));
    const bad = decode(Buffer.from('{"a": 1,, }'), 'json');
    expect(bad.error).toMatch(/^json: .*position 8/);
    expect(bad.text).toBe('');
    // Asked for nothing in particular, broken JSON is shown as the text it is.
    expect(decode(Buffer.from('{"a": 1,, }'))).toMatchObject({ format: 'text', text: '{"a": 1,, }', error: null });
  });

  it('msgpack: maps, arrays, binary as b"…", 64-bit integers exact', () => {
    const r = decode(Buffer.from(encode({ ...doc, bin: new Uint8Array([0, 0xff, 0x41]), big: 2n ** 63n + 5n }, { useBigInt64: true })));
    expect(r).toMatchObject({ format: 'msgpack', error: null });
    expect(r.text).toContain('"tags": [\n    "a",\n    "b"\n  ]');
    expect(r.text).toContain('"bin": b"\\x00\\xffA"');
    expect(r.text).toContain(`"big": ${2n ** 63n + 5n}`);
    expect(decode(Buffer.from(encode([1, 2, 3])).subarray(0, 3), 'msgpack').error).toMatch(/^msgpack: .*\(at byte 3\)$/);
  });

  it('php: arrays and objects of classes nobody defined here', () => {
    const r = decode(Buffer.from(serialize(doc)));
    expect(r).toMatchObject({ format: 'php', error: null });
    expect(r.text).toBe(pretty(doc));
    const obj = decode(Buffer.from('O:8:"App\\User":2:{s:4:"name";s:3:"bob";s:9:"\0*\0secret";s:1:"x";}'));
    expect(obj).toMatchObject({ format: 'php', error: null });
    expect(obj.text).toBe('App\\User {\n  "name": "bob",\n  "secret": "x"\n}');
    // A class named like an Object.prototype member finds nothing to call either.
    expect(decode(Buffer.from('O:11:"constructor":0:{}'), 'php')).toMatchObject({ error: null, text: 'constructor {}' });
    expect(decode(Buffer.from('a:2:{i:0;s:5:"abc'), 'php').error).toMatch(/^php: /);
  });

  it('pickle: a parser, from a real Python pickle', () => {
    const r = decode(fixture('value.pickle'));
    expect(r).toMatchObject({ format: 'pickle', error: null });
    for (const part of ['"name": "ada"', '"ratio": 0.5', '"raw": b"\\x00\\xff"', 'Set [\n    7\n  ]', '"ok": true', '"none": null'])
      expect(r.text).toContain(part);
  });

  it('pickle: GLOBAL os.system + REDUCE is shown, never run', () => {
    const marker = '/tmp/cacheboard-pickle-pwned';
    const r = decode(fixture('exploit.pickle'));
    expect(r).toMatchObject({ format: 'pickle', error: null });
    expect(r.text).toBe(`posix.system {\n  "args": [\n    "touch ${marker}"\n  ]\n}`);
    expect(existsSync(marker)).toBe(false);
  });

  it('java: a real ObjectOutputStream, parsed only; a cut stream names the byte', () => {
    const ser = fixture('value.java.ser');
    const r = decode(ser);
    expect(r).toMatchObject({ format: 'java', error: null });
    expect(r.text).toBe('Gen$Point {\n  "on": true,\n  "x": 3,\n  "y": 1234567890123,\n  "label": "origin"\n}');
    expect(decode(ser.subarray(0, 40), 'java').error).toMatch(/^java: Premature end of input \(at byte \d+\)/);
  });

  it('protobuf: field numbers and wire types, nested messages, only when asked', () => {
    const inner = protobuf.Writer.create()
      .uint32((1 << 3) | 2)
      .string('ada')
      .uint32((2 << 3) | 0)
      .int32(7)
      .finish();
    const msg = protobuf.Writer.create()
      .uint32((1 << 3) | 0)
      .uint64(150)
      .uint32((2 << 3) | 2)
      .bytes(inner)
      .uint32((3 << 3) | 5)
      .fixed32(9)
      .uint32((4 << 3) | 0)
      .sint32(-3)
      .finish();
    expect(decode(Buffer.from(msg)).format).not.toBe('protobuf');
    const r = decode(Buffer.from(msg), 'protobuf');
    expect(r).toMatchObject({ format: 'protobuf', error: null });
    expect(r.text).toContain('"field": 1,\n    "wire": "varint",\n    "value": 150');
    expect(r.text).toContain('"field": 1,\n        "wire": "bytes",\n        "value": "ada"');
    expect(r.text).toContain('"wire": "fixed32",\n    "value": {\n      "uint": 9,');
    // sint32 -3 is zigzag 5 on the wire; without a schema the reader shows the wire's number.
    expect(r.text).toContain('"field": 4,\n    "wire": "varint",\n    "value": 5');
    const neg = decode(Buffer.from(protobuf.Writer.create().uint32(8).int64(-2).finish()), 'protobuf');
    expect(neg.text).toContain(`"uint": ${2n ** 64n - 2n},\n      "int": -2`);
    const cut = decode(Buffer.from(msg).subarray(0, 5), 'protobuf');
    expect(cut.error).toMatch(/^protobuf: field 2 \(bytes\) at byte 3 runs past the end/);
  });

  it('text: UTF-8 with escapes for bytes that are not', () => {
    expect(decode(Buffer.from([0x68, 0x69, 0xff, 0x0a, 0xe2, 0x80, 0xae]))).toMatchObject({ format: 'text', text: 'hi\\xff\\n\\u202e' });
  });
});

describe('decodeBytes: compression by magic bytes', () => {
  const json = Buffer.from(JSON.stringify({ events: Array.from({ length: 50 }, (_, id) => ({ id, kind: 'click' })) }));
  const expected = decode(json).text;

  it.each([
    ['gzip', zlib.gzipSync(json)],
    ['deflate', zlib.deflateSync(json)],
    ['lz4', Buffer.from(lz4.compress(json))],
    ['snappy', snappyFramed(json)],
  ] as const)('%s is found and undone', (kind, packed) => {
    expect(decode(packed)).toMatchObject({ compression: kind, format: 'json', decodedBytes: json.length, text: expected, error: null });
  });

  it('zstd (a frame made by the zstd CLI)', () => {
    const r = decode(fixture('value.json.zst'));
    expect(r).toMatchObject({ compression: 'zstd', format: 'json', decodedBytes: 2515, error: null });
    expect(r.text).toContain('"kind": "click"');
  });

  it('brotli and raw snappy have no magic bytes: undone only when named', () => {
    const br = zlib.brotliCompressSync(json);
    expect(decode(br).compression).toBeNull();
    expect(decode(br, 'auto', 'brotli')).toMatchObject({ compression: 'brotli', format: 'json', text: expected });
    const raw = Buffer.from(SnappyJS.compress(json));
    expect(decode(raw, 'auto', 'snappy')).toMatchObject({ compression: 'snappy', format: 'json', text: expected });
    expect(decode(zlib.gzipSync(json), 'auto', 'none')).toMatchObject({ compression: null, format: 'text' });
  });

  it('text that happens to start like a zlib header ("x^") is text', () => {
    expect(decode(Buffer.from('x^2 + y^2'))).toMatchObject({ compression: null, format: 'text', text: 'x^2 + y^2', error: null });
    expect(decode(Buffer.from('x^2 + y^2'), 'auto', 'deflate').error).toMatch(/^deflate: /);
  });

  it('a cut compressed value says so', () => {
    const gz = zlib.gzipSync(json);
    expect(decode(gz.subarray(0, gz.length - 12)).error).toBe('gzip: the compressed data ends early (cut or corrupt)');
    expect(decode(fixture('value.json.zst').subarray(0, 40)).error).toMatch(/^zstd: /);
  });
});

describe('decodeBytes: hostile values', () => {
  it('a gzip bomb stops at the 64 MB output cap, naming it', () => {
    const bomb = zlib.gzipSync(Buffer.alloc(80 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(100_000);
    const r = decode(bomb);
    expect(r).toMatchObject({ compression: 'gzip', decodedBytes: 0, text: '' });
    expect(r.error).toBe('gzip: the value decompresses to more than 64 MB, the most decoding produces; stopped there (a compression bomb?)');
  });

  it('a 3 KB zstd bomb of 100 MB, and lz4 and snappy past a lowered cap', () => {
    expect(decode(fixture('zeros-100MB.zst')).error).toMatch(/^zstd: the value decompresses to more than 64 MB/);
    const mb = Buffer.alloc(1024 * 1024);
    expect(decode(Buffer.from(lz4.compress(mb)), 'auto', 'auto', { decompressedBytes: 65_536 }).error).toMatch(
      /^lz4: the value decompresses to more than 64 KB/,
    );
    expect(
      decode(Buffer.concat([SNAPPY_FRAME_MAGIC, ...Array.from({ length: 3 }, () => snappyFramed(Buffer.alloc(60_000)).subarray(10))]), 'auto', 'auto', {
        decompressedBytes: 65_536,
      }).error,
    ).toMatch(/^snappy: the value decompresses to more than 64 KB/);
    expect(decode(Buffer.from(SnappyJS.compress(mb)), 'auto', 'snappy', { decompressedBytes: 65_536 }).error).toMatch(
      /^snappy: the value decompresses to more than 64 KB/,
    );
  });

  it('nesting 100,000 deep: JSON and msgpack are shown to the depth cap, PHP says it is too deep', () => {
    const deep = 100_000;
    const j = decode(Buffer.from('['.repeat(deep) + ']'.repeat(deep)));
    expect(j).toMatchObject({ format: 'json', error: null });
    expect(j.text.split('\n')).toHaveLength(2 * 64 + 1);
    expect(j.text).toContain('…');
    const m = decode(Buffer.concat([Buffer.alloc(deep, 0x91), Buffer.from([0x90])]), 'msgpack');
    expect(m).toMatchObject({ format: 'msgpack', error: null });
    expect(m.text).toContain('…');
    const p = decode(Buffer.from('a:1:{i:0;'.repeat(deep) + 'N;' + '}'.repeat(deep)), 'php');
    expect(p.error).toBe('php: the value is nested too deeply to decode');
  });

  it('text output stops at its cap and says truncated', () => {
    const big = Buffer.from(JSON.stringify(Array.from({ length: 200_000 }, (_, i) => i)));
    const r = decode(big, 'json', 'auto', { textChars: 10_000 });
    expect(r).toMatchObject({ format: 'json', truncated: true, error: null });
    expect(r.text).toHaveLength(10_000);
    expect(decode(Buffer.alloc(50_000, 0x41), 'text', 'auto', { textChars: 1_000 })).toMatchObject({ truncated: true, text: 'A'.repeat(1_000) });
  });

  it('a value longer than what was read: text and protobuf show the part read, the rest refuse with both sizes', () => {
    const head = Buffer.from('{"a": 1, "b": ');
    const whole = 20 * 1024 * 1024;
    expect(decode(head, 'auto', 'auto', {}, whole)).toMatchObject({ format: 'text', truncated: true, text: head.toString(), error: null });
    expect(decode(head, 'json', 'auto', {}, whole).error).toBe('Decoding json needs the whole value, which is 20 MB; decoding reads at most the first 16 MB');
    expect(decode(zlib.gzipSync(head), 'auto', 'auto', {}, whole).error).toBe(
      'Decompressing gzip needs the whole value, which is 20 MB; decoding reads at most the first 16 MB',
    );
    const proto = protobuf.Writer.create().uint32(8).uint32(1).uint32(18).string('x'.repeat(100)).finish();
    const p = decode(Buffer.from(proto).subarray(0, 20), 'protobuf', 'auto', {}, proto.length);
    expect(p).toMatchObject({ truncated: true, error: null });
    expect(p.text).toBe('[\n  {\n    "field": 1,\n    "wire": "varint",\n    "value": 1\n  }\n]');
  });
});

describe('decodeBytes: text', () => {
  it('is exactly what escapeBytes shows, copied run by run, and cut without splitting an escape', () => {
    const parts = ['plain ascii ', 'caf\u00e9 ', '\\ back', '\u202e', '\r\n', '\u{1f600}'].map((s) => Buffer.from(s));
    const bytes = Buffer.concat([...Array.from({ length: 2000 }, (_, i) => parts[i % parts.length] as Buffer), Buffer.from([0xff, 0xc3])]);
    const whole = escapeBytes(bytes, 0, bytes.length).text;
    expect(decode(bytes, 'text')).toMatchObject({ text: whole, truncated: false });
    for (const max of [1, 7, 13, 1000, 4099]) {
      const cut = decode(bytes, 'text', 'auto', { textChars: max });
      expect(cut.text).toBe(escapeBytes(bytes, 0, bytes.length, { maxChars: max }).text);
      expect(cut.truncated).toBe(true);
    }
    const t0 = performance.now();
    expect(decode(Buffer.alloc(16 * 1024 * 1024, 0x61), 'text').text).toHaveLength(2 * 1024 * 1024);
    expect(performance.now() - t0).toBeLessThan(200);
  });
});
