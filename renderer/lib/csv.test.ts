import { describe, expect, it } from 'vitest';
import { csvField, neutralise, toCsv } from './csv';

describe('neutralise', () => {
  it('makes text that a spreadsheet would run as a formula inert with a leading quote', () => {
    for (const s of ['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx']) expect(neutralise(s)).toBe(`'${s}`);
  });

  it('leaves other text alone, including a formula character further in', () => {
    expect(neutralise('user:1')).toBe('user:1');
    expect(neutralise('a=b')).toBe('a=b');
    expect(neutralise('')).toBe('');
    expect(neutralise(' =1')).toBe(' =1');
  });
});

describe('csvField', () => {
  it('quotes commas, quotes and line breaks, doubling quotes', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField('cr\rhere')).toBe('"cr\rhere"');
    expect(csvField('plain')).toBe('plain');
  });

  it('neutralises before quoting, so the quote stays inside the field', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvField('\r\n')).toBe('"\'\r\n"');
  });

  it('writes numbers as numbers: a negative TTL is data, not a formula', () => {
    expect(csvField(-1)).toBe('-1');
    expect(csvField(0.5)).toBe('0.5');
    expect(csvField(Number.NaN)).toBe('');
    expect(csvField(true)).toBe('true');
    expect(csvField(undefined)).toBe('');
    expect(csvField(null)).toBe('');
  });
});

describe('toCsv', () => {
  it('joins fields with commas and rows with CRLF, ending with one', () => {
    expect(
      toCsv([
        ['a', 1],
        ['b,c', -2],
      ]),
    ).toBe('a,1\r\n"b,c",-2\r\n');
    expect(toCsv([])).toBe('');
  });
});
