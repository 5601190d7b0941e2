import { describe, expect, it } from 'vitest';
import { decodeCommands } from './respTestKit';
import { RespBuilder } from './respBuilder';

describe('RespBuilder', () => {
  it('writes arrays of bulk strings in the exact RESP form redis-cli --pipe sends', () => {
    const b = new RespBuilder();
    b.command(3).arg('SET').arg('k').arg('hello');
    expect(b.take().toString('latin1')).toBe('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$5\r\nhello\r\n');
  });

  it('counts UTF-8 bytes, not string length, for multi-byte characters', () => {
    const b = new RespBuilder();
    b.command(2).arg('é').arg('日本🙂');
    const out = b.take();
    expect(out.toString('latin1').startsWith('*2\r\n$2\r\n')).toBe(true);
    const [cmd] = decodeCommands(out);
    expect(cmd?.map((a) => a.length)).toEqual([2, 10]);
    expect(cmd?.map((a) => a.toString('utf8'))).toEqual(['é', '日本🙂']);
  });

  it('passes any bytes through argBytes: NUL, CR LF, invalid UTF-8', () => {
    const src = Buffer.from([0x41, 0x00, 0x0d, 0x0a, 0xff, 0xfe, 0x42]);
    const long = Buffer.alloc(300, 0x80);
    const b = new RespBuilder();
    b.command(3).argBytes(src, 1, 6).argBytes(src, 0, 0).argBytes(long, 0, 300);
    const [cmd] = decodeCommands(b.take());
    expect(cmd?.[0]).toEqual(Buffer.from([0x00, 0x0d, 0x0a, 0xff, 0xfe]));
    expect(cmd?.[1]).toEqual(Buffer.alloc(0));
    expect(cmd?.[2]).toEqual(long);
  });

  it('writes numbers as Redis prints them', () => {
    const b = new RespBuilder();
    b.command(6).argNumber(0).argNumber(7).argNumber(1234567890123).argNumber(-42).argNumber(1.5).argNumber(-0.25);
    const [cmd] = decodeCommands(b.take());
    expect(cmd?.map((a) => a.toString())).toEqual(['0', '7', '1234567890123', '-42', '1.5', '-0.25']);
  });

  it('assembles one argument from parts with bulkHeader, raw and end', () => {
    const b = new RespBuilder();
    const id = Buffer.from('xx42yy');
    b.command(1).bulkHeader(7).raw(Buffer.from('user:')).raw(id, 2, 4).end();
    expect(b.take().toString()).toBe('*1\r\n$7\r\nuser:42\r\n');
  });

  it('never overwrites a taken buffer, across slab changes', () => {
    const b = new RespBuilder(64);
    const taken: Buffer[] = [];
    const expected: string[] = [];
    for (let i = 0; i < 200; i++) {
      const v = `value-${i}-${'x'.repeat(i % 50)}`;
      b.command(2).arg('ECHO').arg(v);
      expected.push(v);
      if (i % 3 === 0) taken.push(b.take());
    }
    taken.push(b.take());
    const got = taken.flatMap((t) => decodeCommands(t)).map((c) => c[1]?.toString());
    expect(got).toEqual(expected);
  });

  it('keeps a command that is half written when the slab fills up', () => {
    const b = new RespBuilder(64);
    b.command(2).arg('SET');
    b.arg('y'.repeat(1000)); // forces a new slab mid-command
    const [cmd] = decodeCommands(b.take());
    expect(cmd?.[0]?.toString()).toBe('SET');
    expect(cmd?.[1]?.length).toBe(1000);
  });

  it('reports its size and resets it on take() and clear()', () => {
    const b = new RespBuilder();
    expect(b.size).toBe(0);
    b.command(1).arg('PING');
    expect(b.size).toBe('*1\r\n$4\r\nPING\r\n'.length);
    b.take();
    expect(b.size).toBe(0);
    b.command(1).arg('PING');
    b.clear();
    expect(b.size).toBe(0);
    expect(b.take().length).toBe(0);
  });

  it('grows a written command in place with patchCount, shifting when the count gains digits', () => {
    const b = new RespBuilder(64);
    b.command(1).arg('PING');
    const mark = b.mark;
    b.command(3).arg('SADD').arg('k').arg('m0');
    let argc = 3;
    for (let i = 1; i < 120; i++) {
      b.arg(`m${i}`); // crosses 9 → 10 and 99 → 100 arguments, and several slab moves
      b.patchCount(mark, argc, argc + 1);
      argc++;
    }
    const cmds = decodeCommands(b.take());
    expect(cmds[0]?.map(String)).toEqual(['PING']);
    expect(cmds[1]?.map(String)).toEqual(['SADD', 'k', ...Array.from({ length: 120 }, (_, i) => `m${i}`)]);
  });
});

describe('slab reuse', () => {
  it('reuses a slab once every slice taken from it is recycled, and never while one is out', () => {
    const b = new RespBuilder(256);
    const fill = () => {
      b.command(2).arg('SET').arg('x'.repeat(60));
      return b.take();
    };
    const first = fill();
    const slab = first.buffer;
    const more: Buffer[] = [];
    // Take until one lands on another slab (the builder moves on when less than a quarter is left).
    while (more.length < 10 && more.every((t) => t.buffer === slab)) more.push(fill());
    expect(more.some((t) => t.buffer !== slab)).toBe(true);
    const onFirstSlab = [first, ...more].filter((t) => t.buffer === slab);
    // One slice still out: the slab must not come back, or its bytes could be overwritten under the socket.
    for (const t of onFirstSlab.slice(1)) b.recycle(t);
    const later = Array.from({ length: 6 }, fill);
    expect(later.every((t) => t.buffer !== slab)).toBe(true);
    expect(onFirstSlab[0]?.toString()).toContain('SET');
    // All back: later batches reuse the slabs already made instead of allocating new ones.
    const seen = new Set([first, ...more, ...later].map((t) => t.buffer));
    b.recycle(onFirstSlab[0] as Buffer);
    for (const t of [...more.filter((t) => t.buffer !== slab), ...later]) b.recycle(t);
    const again = Array.from({ length: 8 }, fill);
    expect(again.every((t) => seen.has(t.buffer))).toBe(true);
  });
});
