import { describe, expect, it } from 'vitest';
import { inputError, RecordingTracker, run, runCollecting } from './sourceTestKit';

const cmd = (...args: (string | Buffer)[]): Buffer => {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const a of args) {
    const b = typeof a === 'string' ? Buffer.from(a) : a;
    parts.push(Buffer.from(`$${b.length}\r\n`), b, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
};

describe('resp source', () => {
  it('passes the input bytes through unchanged, in batches of whole commands', async () => {
    const input = Buffer.concat(Array.from({ length: 500 }, (_, i) => cmd('SET', `k${i}`, 'v'.repeat(i % 37))));
    const r = await run(input, { format: 'resp', batchBytes: 1000 });
    expect(Buffer.concat(r.batches.map((b) => b.resp))).toEqual(input);
    expect(r.commands).toHaveLength(500);
    expect(r.batches.length).toBeGreaterThan(5);
    expect(r.batches.at(-1)?.records).toBe(500);
    expect(r.batches.at(-1)?.bytesRead).toBe(input.length);
  });

  it('keeps binary payloads intact, CR LF and NUL inside them included', async () => {
    const bin = Buffer.from([0, 13, 10, 255, 42, 36, 13, 10]);
    const r = await run(cmd('SET', 'bin', bin), { format: 'resp' });
    expect(r.raw[0]?.[2]).toEqual(bin);
  });

  it('gives each command the line it starts on, counting newlines inside payloads', async () => {
    // SET a b spans 7 lines; the payload "x\ny" adds one more.
    const input = Buffer.concat([cmd('SET', 'a', 'b'), cmd('SET', 'c', 'x\ny'), cmd('PING')]);
    const r = await run(input, { format: 'resp' });
    expect(r.lines).toEqual([1, 8, 16]);
    // Long payloads are searched natively; same count.
    const long = `${'a'.repeat(40)}\n${'b'.repeat(40)}\n\n`;
    const r2 = await run(Buffer.concat([cmd('SET', 'k', long), cmd('PING')]), { format: 'resp' });
    expect(r2.lines).toEqual([1, 11]);
  });

  it('yields the same commands and lines however the input is split into chunks', async () => {
    const input = Buffer.concat([cmd('SET', 'é', 'x\r\ny'), cmd('HSET', 'h', 'f', '日本'), cmd('DEL', 'z')]);
    const whole = await run(input, { format: 'resp' });
    for (const size of [1, 2, 3, 5, 7, 13]) {
      const split = await run(input, { format: 'resp' }, size);
      expect(split.commands).toEqual(whole.commands);
      expect(split.lines).toEqual(whole.lines);
    }
  });

  it("reports a command that doesn't start with '*' at its line and column", async () => {
    const e = await inputError(Buffer.concat([cmd('PING'), Buffer.from('SET a b\r\n')]), { format: 'resp' });
    expect(e.message).toBe("in:4:1: expected '*' at the start of a command, got 'S'");
    expect(e.position).toEqual({ file: 'in', line: 4, column: 1 });
  });

  it('reports a bulk length that does not match its payload', async () => {
    const e = await inputError('*2\r\n$3\r\nGET\r\n$5\r\nabc\r\n*1\r\n$4\r\nPING\r\n', { format: 'resp' });
    expect(e.message).toBe("in:5:4: bulk length 5 but found '\\r\\n' after 3 bytes");
    const lf = await inputError('*2\r\n$3\r\nGET\r\n$5\r\nabc\n*1\r\n$4\r\nPING\r\n', { format: 'resp' });
    expect(lf.message).toBe("in:5:4: bulk length 5 but found '\\n' after 3 bytes");
  });

  it("reports a missing '$' and a bad length", async () => {
    expect((await inputError('*2\r\n$3\r\nGET\r\nk\r\n', { format: 'resp' })).message).toBe(
      "in:4:1: expected '$' followed by a length (argument 2 of 2), got 'k'",
    );
    expect((await inputError('*1\r\n$x\r\n', { format: 'resp' })).message).toBe("in:2:2: expected a bulk length (digits), got 'x'");
    expect((await inputError('*0\r\n', { format: 'resp' })).message).toBe('in:1:2: a command needs at least one argument, got *0');
  });

  it('reports input that ends inside a command, naming the line the command started on', async () => {
    const input = Buffer.concat([cmd('PING'), cmd('PING'), cmd('PING'), cmd('PING'), Buffer.from('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nab')]);
    const e = await inputError(input, { format: 'resp' }, 4);
    expect(e.message).toBe('in:19: unexpected end of input inside a command started at line 13');
  });

  it('still yields the commands before a malformed spot', async () => {
    const { result, error } = await runCollecting(Buffer.concat([cmd('SET', 'a', '1'), cmd('SET', 'b', '2'), Buffer.from('oops\r\n')]), {
      format: 'resp',
    });
    expect(error).toBeDefined();
    expect(result.commands).toEqual([
      ['SET', 'a', '1'],
      ['SET', 'b', '2'],
    ]);
  });

  it('reports keys of key-creating commands, whatever their case, and MSET keys pairwise', async () => {
    const tracker = new RecordingTracker();
    const input = Buffer.concat([
      cmd('set', 'a', '1'),
      cmd('HSET', 'h', 'f', 'v'),
      cmd('SaDd', 's', 'm'),
      cmd('MSET', 'm1', '1', 'm2', '2'),
      cmd('ZADD', 'z', '1', 'm'),
      cmd('EXPIRE', 'a', '100'),
      cmd('PERSIST', 'a'),
    ]);
    await run(input, { format: 'resp', tracker });
    expect(tracker.keys).toEqual(['a', 'h', 's', 'm1', 'm2', 'z']);
    expect(tracker.untracked).toEqual([]);
  });

  it('marks the key count untrackable, once per command name, for commands that may remove keys', async () => {
    const tracker = new RecordingTracker();
    const input = Buffer.concat([cmd('SET', 'a', '1'), cmd('del', 'a'), cmd('DEL', 'b'), cmd('RENAME', 'x', 'y'), cmd('EXPIRE', 'k', '0'), cmd('FLUSHDB')]);
    await run(input, { format: 'resp', tracker });
    expect(tracker.untracked).toEqual(['DEL', 'RENAME', 'EXPIRE', 'FLUSHDB']);
  });
});
