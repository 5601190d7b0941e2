import { describe, expect, it } from 'vitest';
import { ReplyTextSink } from './replyTextSink';
import { RespStreamParser } from './respStreamParser';

function text(chunks: Buffer[], raw: boolean): Buffer {
  const out: Buffer[] = [];
  const sink = new ReplyTextSink(raw ? 'raw' : 'formatted', (c) => out.push(Buffer.from(c)));
  const parser = new RespStreamParser(sink);
  for (const c of chunks) parser.feed(c);
  expect(parser.complete).toBe(true);
  sink.flush();
  return Buffer.concat(out);
}

describe('ReplyTextSink', () => {
  // é (2 bytes), € (3), 𝄞 (4), a bidi override, a quote, a lone lead byte before plain ASCII.
  const value = Buffer.from([0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9d, 0x84, 0x9e, 0xe2, 0x80, 0xae, 0x22, 0xc3, 0x62]);
  const wire = Buffer.concat([Buffer.from(`*2\r\n$${value.length}\r\n`), value, Buffer.from('\r\n=6\r\ntxt:\xff\n\r\n', 'latin1')]);

  it('escapes a string as the app does, however its pieces split a character', () => {
    // A verbatim string is printed as its bytes, as redis-cli does, in both modes.
    const formatted = Buffer.concat([Buffer.from('1) "aé€𝄞\\u202e\\"\\xc3b"\n2) '), Buffer.from([0xff, 0x0a, 0x0a])]);
    const raw = Buffer.concat([value, Buffer.from([0x0a, 0xff, 0x0a, 0x0a])]);
    for (let cut = 1; cut < wire.length; cut++) {
      const parts = [wire.subarray(0, cut), wire.subarray(cut)];
      expect(text(parts, false).toString('latin1')).toBe(formatted.toString('latin1'));
      expect(text(parts, true).equals(raw)).toBe(true);
    }
  });
});
