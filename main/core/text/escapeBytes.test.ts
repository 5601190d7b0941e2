import { describe, expect, it } from 'vitest';
import { escapeBytes } from './escapeBytes';

const esc = (b: Buffer, opts = {}) => escapeBytes(b, 0, b.length, opts);

describe('escapeBytes', () => {
  it('keeps printable ASCII and well-formed UTF-8, escapes the rest like redis-cli', () => {
    const v = Buffer.concat([Buffer.from('a b"é'), Buffer.from([0x0a, 0x0d, 0x09, 0x00, 0x7f, 0xc3]), Buffer.from('\\')]);
    expect(esc(v)).toEqual({ text: 'a b"é\\n\\r\\t\\x00\\x7f\\xc3\\\\', next: v.length });
  });

  it('shows bidi controls, zero-width characters and the BOM as \\u escapes, other UTF-8 as is', () => {
    const v = Buffer.from('a\u202eb\u200bc\u2066d\ufeffé\u0085');
    expect(esc(v).text).toBe('a\\u202eb\\u200bc\\u2066d\\ufeffé\\u0085');
  });

  it('escapes double quotes when asked (text shown between quotes)', () => {
    expect(esc(Buffer.from('say "hi"'), { quote: true }).text).toBe('say \\"hi\\"');
  });

  it('escapes malformed bytes one by one between valid characters', () => {
    expect(esc(Buffer.from([0xff, 0xfe, 0x41, 0xe2, 0x82, 0xac, 0xe2, 0x82])).text).toBe('\\xff\\xfeA€\\xe2\\x82');
  });

  it('cuts before maxChars without splitting an escape or a character, and says where', () => {
    const v = Buffer.from('ab\n€🙂');
    expect(esc(v, { maxChars: 3 })).toEqual({ text: 'ab', next: 2 });
    expect(esc(v, { maxChars: 5 })).toEqual({ text: 'ab\\n€', next: 6 });
    // 🙂 is two UTF-16 units: it does not fit in 6.
    expect(esc(v, { maxChars: 6 })).toEqual({ text: 'ab\\n€', next: 6 });
  });

  it('shows at most maxBytes of input, a character straddling the limit whole', () => {
    expect(esc(Buffer.from('abcé'), { maxBytes: 4 })).toEqual({ text: 'abcé', next: 5 });
    expect(esc(Buffer.from('abcdef'), { maxBytes: 4 })).toEqual({ text: 'abcd', next: 4 });
  });
});
