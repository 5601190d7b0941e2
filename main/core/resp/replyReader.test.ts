import { describe, expect, it } from 'vitest';
import { ReplyError, ReplyReader, type Reply } from './replyReader';
import { ReplyProtocolError } from './replyProtocolError';

const wire = Buffer.from(
  '+string\r\n' +
    '$8\r\nlistpack\r\n' +
    ':-2\r\n' +
    ':1234567\r\n' +
    '$-1\r\n' +
    '-WRONGTYPE Operation against a key holding the wrong kind of value\r\n' +
    '*2\r\n$1\r\n0\r\n*3\r\n$2\r\n\xff\xfe\r\n$4\r\na\r\nb\r\n$0\r\n\r\n' +
    '*-1\r\n',
  'latin1',
);

function norm(r: Reply): unknown {
  if (Buffer.isBuffer(r)) return { bytes: [...r] };
  if (Array.isArray(r)) return r.map(norm);
  if (r instanceof ReplyError) return { error: r.message };
  return r;
}

const expected = [
  'string',
  { bytes: [...Buffer.from('listpack')] },
  -2,
  1234567,
  null,
  { error: 'WRONGTYPE Operation against a key holding the wrong kind of value' },
  [{ bytes: [0x30] }, [{ bytes: [0xff, 0xfe] }, { bytes: [...Buffer.from('a\r\nb')] }, { bytes: [] }]],
  null,
];

function readAll(chunks: Buffer[]): unknown[] {
  const reader = new ReplyReader();
  const out: unknown[] = [];
  for (const c of chunks) reader.feed(c, (r) => out.push(norm(r)));
  return out;
}

describe('ReplyReader', () => {
  it('decodes every RESP2 type, binary bulk strings and nested arrays', () => {
    expect(readAll([wire])).toEqual(expected);
  });

  it('gives the same replies whichever byte a chunk ends on', () => {
    for (let cut = 1; cut < wire.length; cut++) {
      expect(readAll([wire.subarray(0, cut), wire.subarray(cut)])).toEqual(expected);
    }
    expect(readAll([...wire].map((b) => Buffer.from([b])))).toEqual(expected);
  });

  it('reads a reply far bigger than a chunk (a SCAN of 100,000 keys) in pieces', () => {
    const keys = Array.from({ length: 100_000 }, (_, i) => `key:${i}`);
    const big = Buffer.from(`*2\r\n$1\r\n0\r\n*${keys.length}\r\n${keys.map((k) => `$${k.length}\r\n${k}\r\n`).join('')}`);
    const chunks: Buffer[] = [];
    for (let i = 0; i < big.length; i += 16 * 1024) chunks.push(big.subarray(i, i + 16 * 1024));
    const reader = new ReplyReader();
    const out: Reply[] = [];
    for (const c of chunks) reader.feed(c, (r) => out.push(r));
    expect(out).toHaveLength(1);
    const got = (out[0] as Reply[])[1] as Buffer[];
    expect(got).toHaveLength(keys.length);
    expect(got[99_999]?.toString()).toBe('key:99999');
  });

  it('gives bulk strings as text while bulkAsText is on, switched between replies', () => {
    const reader = new ReplyReader();
    const out: Reply[] = [];
    // On for the first two replies (an encoding name, a nil), off again for the key after them.
    reader.bulkAsText = true;
    const onReply = (r: Reply) => {
      out.push(r);
      if (out.length === 2) reader.bulkAsText = false;
    };
    const bytes = Buffer.from('$6\r\nembstr\r\n$-1\r\n$2\r\n\xff\xfe\r\n', 'latin1');
    // Cut inside the second value, so the switch applies across chunks too.
    reader.feed(bytes.subarray(0, 14), onReply);
    reader.feed(bytes.subarray(14), onReply);
    expect(out.map(norm)).toEqual(['embstr', null, { bytes: [0xff, 0xfe] }]);
  });

  it('refuses bytes that cannot start a reply', () => {
    expect(() => readAll([Buffer.from('?what\r\n')])).toThrow(ReplyProtocolError);
  });
});

describe('ReplyReader with a huge bulk string', () => {
  it('waits for all of it, then hands it over whole', () => {
    const body = Buffer.alloc(1 << 20, 'v');
    const wire2 = Buffer.concat([Buffer.from(`$${body.length}\r\n`), body, Buffer.from('\r\n:7\r\n')]);
    const reader = new ReplyReader();
    const out: Reply[] = [];
    for (let i = 0; i < wire2.length; i += 10_000) reader.feed(wire2.subarray(i, i + 10_000), (r) => out.push(r));
    expect(out).toHaveLength(2);
    expect((out[0] as Buffer).equals(body)).toBe(true);
    expect(out[1]).toBe(7);
  });
});
