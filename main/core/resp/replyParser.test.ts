import { describe, expect, it } from 'vitest';
import { ReplyParser } from './replyParser';
import { ReplyProtocolError } from './replyProtocolError';

/** One reply of every RESP2 kind, with what the parser must report for it. */
const REPLIES: { resp: string; error?: string[] }[] = [
  { resp: '+OK\r\n' },
  { resp: '-ERR value is not an integer or out of range\r\n', error: ['ERR value is not an integer or out of range'] },
  { resp: ':1\r\n' },
  { resp: ':-42\r\n' },
  { resp: '$5\r\nhello\r\n' },
  { resp: '$0\r\n\r\n' },
  { resp: '$-1\r\n' },
  // A bulk body full of protocol bytes must be skipped by length, not scanned.
  { resp: '$12\r\n+OK\r\n-ERR\r\n:\r\n' },
  { resp: '*0\r\n' },
  { resp: '*-1\r\n' },
  { resp: '*3\r\n$1\r\na\r\n:2\r\n$-1\r\n' },
  { resp: '*2\r\n*2\r\n+x\r\n*1\r\n:1\r\n*0\r\n' },
  // EXEC with a failed queued command: the nested error belongs to the EXEC reply.
  {
    resp: '*2\r\n+OK\r\n-WRONGTYPE Operation against a key holding the wrong kind of value\r\n',
    error: ['WRONGTYPE Operation against a key holding the wrong kind of value'],
  },
  { resp: '-\r\n', error: [''] },
  { resp: "-ERR unknown command 'FOO', with args beginning with: 'é' \r\n", error: ["ERR unknown command 'FOO', with args beginning with: 'é' "] },
  { resp: '+OK\r\n' },
];

const STREAM = Buffer.from(REPLIES.map((r) => r.resp).join(''), 'utf8');
const EXPECTED_ERRORS = REPLIES.flatMap((r, index) => (r.error ?? []).map((message) => ({ index, message })));

function parse(chunks: Buffer[]): { replies: number; errors: { index: number; message: string }[]; idle: boolean } {
  const errors: { index: number; message: string }[] = [];
  const parser = new ReplyParser((index, message) => errors.push({ index, message }));
  for (const c of chunks) parser.feed(c);
  return { replies: parser.replies, errors, idle: parser.idle() };
}

describe('ReplyParser', () => {
  it('counts every RESP2 reply kind and reports errors with their reply index', () => {
    expect(parse([STREAM])).toEqual({ replies: REPLIES.length, errors: EXPECTED_ERRORS, idle: true });
  });

  it('gives the same result whatever byte the stream is split at', () => {
    for (let k = 0; k <= STREAM.length; k++) {
      const got = parse([STREAM.subarray(0, k), STREAM.subarray(k)]);
      expect(got, `split at ${k}`).toEqual({ replies: REPLIES.length, errors: EXPECTED_ERRORS, idle: true });
    }
  });

  it('gives the same result for every pair of split points', () => {
    for (let a = 0; a <= STREAM.length; a++) {
      for (let b = a; b <= STREAM.length; b += 3) {
        const got = parse([STREAM.subarray(0, a), STREAM.subarray(a, b), STREAM.subarray(b)]);
        expect(got.replies).toBe(REPLIES.length);
        expect(got.errors).toEqual(EXPECTED_ERRORS);
      }
    }
  });

  it('parses a stream fed one byte at a time', () => {
    const bytes = [...STREAM].map((b) => Buffer.from([b]));
    expect(parse(bytes)).toEqual({ replies: REPLIES.length, errors: EXPECTED_ERRORS, idle: true });
  });

  it('does not count a reply until its last byte arrives', () => {
    const errors: number[] = [];
    const parser = new ReplyParser((i) => errors.push(i));
    parser.feed(Buffer.from('+OK\r\n*2\r\n:1\r'));
    expect(parser.replies).toBe(1);
    expect(parser.idle()).toBe(false);
    parser.feed(Buffer.from('\n$3\r\nabc\r'));
    expect(parser.replies).toBe(1);
    parser.feed(Buffer.from('\n'));
    expect(parser.replies).toBe(2);
    expect(parser.idle()).toBe(true);
  });

  it('keeps an error message intact when its chunk is reused after feed()', () => {
    const messages: string[] = [];
    const parser = new ReplyParser((_, m) => messages.push(m));
    const chunk = Buffer.from('-ERR fir');
    parser.feed(chunk);
    chunk.fill(0x78);
    parser.feed(Buffer.from('st\r\n'));
    expect(messages).toEqual(['ERR first']);
  });

  it('rejects bytes that cannot start a RESP2 reply (a RESP3 map, for one)', () => {
    const parser = new ReplyParser(() => undefined);
    expect(() => parser.feed(Buffer.from('+OK\r\n%1\r\n'))).toThrow(ReplyProtocolError);
    expect(parser.replies).toBe(1);
  });
});
