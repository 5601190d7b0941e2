import { describe, expect, it } from 'vitest';
import { InputError } from '../types';
import { BatchSink } from './batchSink';
import type { ChunkParser } from './parseStream';
import { parseStream } from './parseStream';

/** Consumes newline-terminated records; counts the bytes it was offered. */
class LineParser implements ChunkParser {
  records = 0;
  offered = 0;
  seen: string[] = [];
  constructor(private readonly sink: BatchSink) {}
  parse(data: Buffer, final: boolean): number {
    this.offered += data.length;
    let pos = 0;
    for (;;) {
      const nl = data.indexOf(10, pos);
      if (nl < 0) break;
      const text = data.toString('latin1', pos, nl);
      if (text === 'bad') throw new InputError({ file: 'f', line: this.records + 1 }, 'bad record');
      this.seen.push(text);
      this.sink.out.command(1).arg(text);
      this.sink.commit(++this.records);
      pos = nl + 1;
      this.sink.advance(this.records, pos);
    }
    return final ? data.length : pos;
  }
  finish(): void {}
}

async function* chunks(...parts: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const p of parts) yield typeof p === 'string' ? Buffer.from(p, 'latin1') : p;
}

async function drain(gen: AsyncIterable<unknown>): Promise<number> {
  let n = 0;
  for await (const _ of gen) n++;
  return n;
}

describe('parseStream', () => {
  it('joins a record split across chunks', async () => {
    const sink = new BatchSink();
    const p = new LineParser(sink);
    await drain(parseStream(chunks('ab', 'c\nd', 'e', '\n'), p, sink));
    expect(p.seen).toEqual(['abc', 'de']);
  });

  it('re-offers a long record only as the buffered input doubles, so the work stays linear', async () => {
    const sink = new BatchSink();
    const p = new LineParser(sink);
    const parts = Array.from({ length: 4096 }, () => 'x'.repeat(256));
    await drain(parseStream(chunks(...parts, '\n'), p, sink));
    const total = 4096 * 256 + 1;
    expect(p.seen[0]?.length).toBe(total - 1);
    expect(p.offered).toBeLessThan(4 * total);
  });

  it('yields the batch in progress before rethrowing a parse error', async () => {
    const sink = new BatchSink();
    const p = new LineParser(sink);
    const got: string[] = [];
    await expect(
      (async () => {
        for await (const b of parseStream(chunks('a\nb\nbad\nc\n'), p, sink)) got.push(b.resp.toString('latin1'));
      })(),
    ).rejects.toThrow('f:3: bad record');
    expect(got.join('')).toBe('*1\r\n$1\r\na\r\n*1\r\n$1\r\nb\r\n');
  });

  it('skips a byte order mark split over chunks, counting it as read', async () => {
    const sink = new BatchSink();
    const p = new LineParser(sink);
    const batches = [];
    for await (const b of parseStream(chunks(Buffer.from([0xef]), Buffer.from([0xbb, 0xbf]), 'hi\n'), p, sink, { skipBom: true })) batches.push(b);
    expect(p.seen).toEqual(['hi']);
    expect(batches.at(-1)?.bytesRead).toBe(6);
  });
});

describe('parseStream and its signal', () => {
  it('yields no batch once the signal is aborted, even one parsed before the abort', async () => {
    const ctl = new AbortController();
    const sink = new BatchSink(1);
    const p = new LineParser(sink);
    const parse = p.parse.bind(p);
    p.parse = (data, final) => {
      const n = parse(data, final);
      ctl.abort(); // as a KeyTracker would on seeing SELECT
      return n;
    };
    let yielded = 0;
    await expect(
      (async () => {
        for await (const _ of parseStream(chunks('a\nb\n'), p, sink, { signal: ctl.signal })) yielded++;
      })(),
    ).rejects.toThrow(/abort/i);
    expect(yielded).toBe(0);
  });
});
