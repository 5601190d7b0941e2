import { describe, expect, it } from 'vitest';
import type { Mapping } from '../types';
import { inputError, RecordingTracker, run } from './sourceTestKit';

const str: Mapping = { key: 'user:{id}', type: 'string', value: 'name' };
const csv = (text: string | Buffer, mapping: Mapping = str, chunk?: number) => run(text, { format: 'csv', mapping }, chunk);

describe('csv source', () => {
  it('turns each row into SET key value, the first row being the header', async () => {
    const r = await csv('id,name\n1,Ann\n2,Bob\n');
    expect(r.commands).toEqual([
      ['SET', 'user:1', 'Ann'],
      ['SET', 'user:2', 'Bob'],
    ]);
    expect(r.lines).toEqual([2, 3]);
    expect(r.columns).toEqual(['id', 'name']);
  });

  it('reads quoted fields with commas, doubled quotes and newlines, and counts the lines they span', async () => {
    const r = await csv('id,name\n1,"Smith, ""Jr"""\n2,"two\nlines\nhere"\n3,plain\n');
    expect(r.commands).toEqual([
      ['SET', 'user:1', 'Smith, "Jr"'],
      ['SET', 'user:2', 'two\nlines\nhere'],
      ['SET', 'user:3', 'plain'],
    ]);
    expect(r.lines).toEqual([2, 3, 6]);
  });

  it('takes a quote inside an unquoted field literally', async () => {
    expect((await csv('id,name\n1,5" screen\n')).commands).toEqual([['SET', 'user:1', '5" screen']]);
  });

  it('accepts CRLF line ends, inside quotes too, and a last row without a line end', async () => {
    const r = await csv('id,name\r\n1,"a\r\nb"\r\n2,c');
    expect(r.commands).toEqual([
      ['SET', 'user:1', 'a\r\nb'],
      ['SET', 'user:2', 'c'],
    ]);
    expect(r.lines).toEqual([2, 4]);
  });

  it('skips empty lines', async () => {
    const r = await csv('id,name\n\n1,a\r\n\r\n\n2,b\n\n');
    expect(r.commands.map((c) => c[1])).toEqual(['user:1', 'user:2']);
    expect(r.lines).toEqual([3, 6]);
  });

  it('gives the same result for every way of splitting the file into chunks', async () => {
    const text = 'id,name\r\n1,"ä, ""q"""\r\n2,"multi\nline 🙂"\r\n3,日本\r\n';
    const whole = await csv(text);
    for (const size of [1, 2, 3, 4, 7]) {
      const split = await csv(text, str, size);
      expect(split.commands).toEqual(whole.commands);
      expect(split.lines).toEqual(whole.lines);
    }
    expect(whole.commands[0]?.[2]).toBe('ä, "q"');
  });

  it('reports a row with the wrong number of columns at its line', async () => {
    const e = await inputError('id,name\n1,a\n2,b,extra,more\n', { format: 'csv', mapping: str });
    expect(e.message).toBe('in:3: row has 4 columns, header has 2');
  });

  it('reports the row line after quoted newlines correctly', async () => {
    const e = await inputError('id,name\n1,"x\ny"\n2\n', { format: 'csv', mapping: str });
    expect(e.message).toBe('in:4: row has 1 column, header has 2');
  });

  it('refuses text after a closing quote and an unterminated quoted field', async () => {
    const bad = await inputError('id,name\n1,"ab"c\n', { format: 'csv', mapping: str });
    expect(bad.message).toBe("in:2:7: expected ',' or the end of the line after a closing quote, got 'c'");
    const open = await inputError('id,name\n1,ok\n2,"never\nclosed\n', { format: 'csv', mapping: str });
    expect(open.message).toBe('in:5: unterminated quoted field: the quote opened at line 3, column 3 is never closed');
  });

  it('passes any bytes through in values, but wants UTF-8 in the header and key columns', async () => {
    const bin = Buffer.concat([Buffer.from('id,name\n1,'), Buffer.from([0xff, 0x00, 0xc3]), Buffer.from('\n')]);
    const r = await csv(bin);
    expect(r.raw[0]?.[2]).toEqual(Buffer.from([0xff, 0x00, 0xc3]));

    const badKey = Buffer.concat([Buffer.from('id,name\n1,a\nab'), Buffer.from([0xc3, 0x28]), Buffer.from(',b\n')]);
    const e = await inputError(badKey, { format: 'csv', mapping: str });
    expect(e.message).toBe("in:3:1: key column 'id' is not valid UTF-8");

    const badHeader = Buffer.concat([Buffer.from('id,na'), Buffer.from([0xe2, 0x82]), Buffer.from('\n')]);
    expect((await inputError(badHeader, { format: 'csv', mapping: str })).message).toBe('in:1:4: header column 2 is not valid UTF-8');
  });

  it('skips a byte order mark before the header', async () => {
    const r = await csv(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('id,name\n1,a\n')]), str, 2);
    expect(r.columns).toEqual(['id', 'name']);
  });

  it('reports every key it writes to the tracker', async () => {
    const tracker = new RecordingTracker();
    await run('id,name\n1,a\n2,b\n', { format: 'csv', mapping: str, tracker });
    expect(tracker.keys).toEqual(['user:1', 'user:2']);
  });

  it('cuts batches near batchBytes, never inside a command, with cumulative records', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `${i},${'v'.repeat(50)}`).join('\n');
    const r = await run(`id,name\n${rows}\n`, { format: 'csv', mapping: str, batchBytes: 2048 });
    expect(r.commands).toHaveLength(300);
    expect(r.batches.length).toBeGreaterThan(8);
    for (const b of r.batches.slice(0, -1)) expect(b.resp.length).toBeLessThan(2048 + 200);
    const records = r.batches.map((b) => b.records);
    expect(records).toEqual([...records].sort((a, b) => a - b));
    expect(records.at(-1)).toBe(300);
  });
});

describe('tsv source', () => {
  const tsv = (text: string) => run(text, { format: 'tsv', mapping: str });

  it('splits on tabs and takes quotes and commas as data', async () => {
    expect((await tsv('id\tname\n1\t"a, b"\n2\tx\r\n')).commands).toEqual([
      ['SET', 'user:1', '"a, b"'],
      ['SET', 'user:2', 'x'],
    ]);
  });

  it('reports a row with the wrong number of fields', async () => {
    const e = await inputError('id\tname\n1\ta\tb\n', { format: 'tsv', mapping: str });
    expect(e.message).toBe('in:2: row has 3 columns, header has 2');
  });
});
