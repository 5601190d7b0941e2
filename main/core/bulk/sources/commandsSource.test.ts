import { describe, expect, it } from 'vitest';
import { inputError, RecordingTracker, run } from './sourceTestKit';

const commands = async (text: string | Buffer, chunk?: number): Promise<string[][]> => (await run(text, { format: 'commands' }, chunk)).commands;

describe('commands source', () => {
  it('splits unquoted arguments on runs of spaces and tabs', async () => {
    expect(await commands('SET  user:1\t hello\nGET user:1\n')).toEqual([
      ['SET', 'user:1', 'hello'],
      ['GET', 'user:1'],
    ]);
  });

  it('takes the escapes redis-cli takes inside double quotes', async () => {
    const [cmd] = await commands('SET k "a\\n\\r\\t\\b\\a\\"\\\\ z"\n');
    expect(cmd?.[2]).toBe('a\n\r\t\b\x07"\\ z');
  });

  it('reads \\xHH as one byte, and \\x without two hex digits as a plain x', async () => {
    const r = await run('SET k "\\xff\\x00\\x4A"\nSET k "\\xZZ\\x4"\n', { format: 'commands' });
    expect(r.raw[0]?.[2]).toEqual(Buffer.from([0xff, 0x00, 0x4a]));
    expect(r.commands[1]?.[2]).toBe('xZZx4');
  });

  it("takes only \\' as an escape inside single quotes", async () => {
    const [cmd] = await commands("SET k 'it\\'s \\n \"raw\"'\n");
    expect(cmd?.[2]).toBe('it\'s \\n "raw"');
  });

  it('joins a quoted part to the text before it, as sdssplitargs does', async () => {
    expect(await commands('SET k a"b c"\n')).toEqual([['SET', 'k', 'ab c']]);
    expect(await commands('SET "" \'\'\n')).toEqual([['SET', '', '']]);
  });

  it('refuses text right after a closing quote, pointing at it', async () => {
    const e = await inputError('PING\nSET k "abc"def\n', { format: 'commands' });
    expect(e.message).toBe("in:2:12: a closing quote must be followed by a space or the end of the line, got 'd'");
    const single = await inputError("SET k 'abc'x\n", { format: 'commands' });
    expect(single.position).toEqual({ file: 'in', line: 1, column: 12 });
  });

  it('reports an unterminated quote at the end of its line, naming the column it opened at', async () => {
    const e = await inputError('PING\nPING\nSET k "abc\nPING\n', { format: 'commands' });
    expect(e.message).toBe('in:3:11: unterminated quote opened at column 7');
    const atEof = await inputError("SET k 'abc", { format: 'commands' });
    expect(atEof.message).toBe('in:1:11: unterminated quote opened at column 7');
  });

  it('counts columns in characters, not bytes', async () => {
    const e = await inputError('SET ключ "x\n', { format: 'commands' });
    expect(e.message).toBe('in:1:12: unterminated quote opened at column 10');
  });

  it('skips blank lines and # comments but keeps line numbers', async () => {
    const r = await run('# header comment\n\n   \nSET a 1\n  # indented comment\nSET b 2\n', { format: 'commands' });
    expect(r.commands).toEqual([
      ['SET', 'a', '1'],
      ['SET', 'b', '2'],
    ]);
    expect(r.lines).toEqual([4, 6]);
    expect(r.batches.at(-1)?.records).toBe(2);
  });

  it('tolerates CRLF line ends and a last line without one', async () => {
    expect(await commands('SET a 1\r\nSET b "2"\r\nSET c 3')).toEqual([
      ['SET', 'a', '1'],
      ['SET', 'b', '2'],
      ['SET', 'c', '3'],
    ]);
  });

  it('keeps a UTF-8 character split across read chunks whole', async () => {
    const text = 'SET ключ "значение 🙂"\nSET k2 日本語\n';
    for (const size of [1, 2, 3, 5]) {
      expect(await commands(text, size)).toEqual([
        ['SET', 'ключ', 'значение 🙂'],
        ['SET', 'k2', '日本語'],
      ]);
    }
  });

  it('skips a UTF-8 byte order mark at the start of the file', async () => {
    expect(await commands(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('PING\n')]), 1)).toEqual([['PING']]);
  });

  it('reports keys and untrackable commands like the resp source', async () => {
    const tracker = new RecordingTracker();
    await run('SET "a b" 1\nincrby n 5\nUNLINK a\nHSET h f v\n', { format: 'commands', tracker });
    expect(tracker.keys).toEqual(['a b', 'n', 'h']);
    expect(tracker.untracked).toEqual(['UNLINK']);
  });
});
