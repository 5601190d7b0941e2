import { describe, expect, it } from 'vitest';
import { MAX_ARG_CHARS, MAX_ARGS, MonitorLineError, parseMonitorLine } from './monitorLine';

const parse = (s: string) => parseMonitorLine(Buffer.from(s, 'latin1'));

describe('parseMonitorLine', () => {
  it('reads time, DB, client, command and arguments', () => {
    const e = parse('1339518083.107412 [3 127.0.0.1:60866] "set" "user:1" "v"');
    expect(e.ts).toBeCloseTo(1339518083107.412, 3);
    expect(e.db).toBe(3);
    expect(e.client).toBe('127.0.0.1:60866');
    expect(e.command).toBe('SET');
    expect(e.args).toEqual(['user:1', 'v']);
    expect(e.truncated).toBe(false);
  });

  it('keeps the server escapes: quotes, backslashes, newlines and binary stay one argument each', () => {
    const e = parse(String.raw`1.000001 [0 lua] "set" "a\"b\\" "line1\r\nline2" "\xff\xfe" "<img src=x onerror=alert(1)>"`);
    expect(e.client).toBe('lua');
    expect(e.args).toEqual([String.raw`a\"b\\`, String.raw`line1\r\nline2`, String.raw`\xff\xfe`, '<img src=x onerror=alert(1)>']);
  });

  it('an escaped backslash right before the closing quote ends the argument there', () => {
    const e = parse(String.raw`1.5 [0 unix:/tmp/r.sock] "get" "x\\" "y"`);
    expect(e.client).toBe('unix:/tmp/r.sock');
    expect(e.args).toEqual([String.raw`x\\`, 'y']);
  });

  it('cuts a long argument at 1 KB without splitting an escape, and marks it', () => {
    const value = String.raw`\x41`.repeat(1000); // 4000 chars of escapes
    const e = parse(`2.0 [0 127.0.0.1:1] "set" "k" "${value}"`);
    expect(e.truncated).toBe(true);
    const kept = e.args[1] ?? '';
    expect(kept.length).toBeLessThanOrEqual(MAX_ARG_CHARS);
    expect(kept.length % 4).toBe(0);
    expect(kept).toBe(value.slice(0, kept.length));
  });

  it('keeps at most MAX_ARGS arguments and counts the rest', () => {
    const args = Array.from({ length: MAX_ARGS + 10 }, (_, i) => `"a${i}"`).join(' ');
    const e = parse(`2.0 [0 127.0.0.1:1] "mset" ${args}`);
    expect(e.args).toHaveLength(MAX_ARGS);
    expect(e.moreArgs).toBe(10);
  });

  it('takes linear time on a 1 MB argument of quotes and escapes', () => {
    const big = String.raw`\"`.repeat(512 * 1024);
    const line = Buffer.from(`3.0 [0 127.0.0.1:1] "set" "k" "${big}"`, 'latin1');
    const small = Buffer.from(`3.0 [0 127.0.0.1:1] "set" "k" "${big.slice(0, 2 * 1024)}"`, 'latin1');
    const time = (b: Buffer) => {
      const t0 = performance.now();
      for (let i = 0; i < 5; i++) parseMonitorLine(b);
      return performance.now() - t0;
    };
    time(line); // warm up
    // 512x the bytes may cost at most ~512x the time (plus slack), never quadratic.
    expect(time(line)).toBeLessThan(Math.max(50, time(small) * 512 * 4));
    expect(parseMonitorLine(line).args[1]?.length).toBeLessThanOrEqual(MAX_ARG_CHARS);
  });

  it.each([
    ['', 'no timestamp'],
    ['1.0 0 127.0.0.1:1] "get"', 'expected [ before the DB'],
    ['1.0 [0 127.0.0.1:1 "get"', 'no ] after the client'],
    ['1.0 [0 127.0.0.1:1] "get', 'unterminated argument'],
    ['1.0 [0 127.0.0.1:1]', 'no command'],
    ['1.0 [x 127.0.0.1:1] "get"', 'expected a digit'],
  ])('refuses %j: %s', (line, message) => {
    expect(() => parse(line)).toThrow(MonitorLineError);
    expect(() => parse(line)).toThrow(message);
  });
});
