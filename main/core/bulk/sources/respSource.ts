import { InputError, type SourceOptions } from '../types';
import type { BatchSink } from './batchSink';
import { CommandKeys } from './commandKeys';
import type { ChunkParser } from './parseStream';
import { CommandFrame, MALFORMED, NEED_MORE, scanCommand } from './respFrame';
import { Row } from './row';
import { locate } from './utf8';

/**
 * RESP input, as `redis-cli --pipe` takes it: arrays of bulk strings. The
 * framing is checked command by command, and the original bytes are copied
 * into the batch in runs, never decoded and re-encoded: this is the format
 * that has to keep up with redis-cli itself. Lines count every `\n`, those
 * inside payloads included, so a position matches what an editor shows.
 */
export function respParser(opts: SourceOptions, sink: BatchSink): ChunkParser {
  return new RespParser(opts, sink);
}

class RespParser implements ChunkParser {
  records = 0;
  private line = 1;
  private readonly frame = new CommandFrame();
  private readonly keys: CommandKeys | undefined;
  private readonly row = new Row();

  constructor(
    private readonly opts: SourceOptions,
    private readonly sink: BatchSink,
  ) {
    this.keys = opts.tracker ? new CommandKeys(opts.tracker) : undefined;
  }

  parse(data: Buffer, final: boolean): number {
    const end = data.length;
    const sink = this.sink;
    const out = sink.out;
    const frame = this.frame;
    let pos = 0;
    let run = 0; // start of the validated bytes not yet copied to the batch
    let line = this.line;
    let records = this.records;
    try {
      while (pos < end) {
        const next = scanCommand(data, pos, end, frame);
        if (next < 0) {
          if (next === MALFORMED) {
            const at = locate(data, pos, line, frame.errorAt);
            throw new InputError({ file: this.opts.file, line: at.line, column: at.column }, frame.error);
          }
          if (next === NEED_MORE && final) {
            throw new InputError(
              { file: this.opts.file, line: line + countLines(data, pos, end) },
              `unexpected end of input inside a command started at line ${line}`,
            );
          }
          break;
        }
        sink.commit(line);
        if (this.keys) this.track(data);
        line += frame.newlines;
        records++;
        pos = next;
        if (pos - run + out.size >= sink.batchBytes) {
          out.raw(data, run, pos);
          run = pos;
          sink.advance(records, pos);
        }
      }
    } finally {
      // Also on an error: the commands before it form the last batch.
      out.raw(data, run, pos);
      this.line = line;
      this.records = records;
      sink.advance(records, pos);
    }
    return pos;
  }

  finish(): void {}

  private track(data: Buffer): void {
    const f = this.frame;
    const row = this.row;
    const n = f.argc;
    for (let i = 0; i < n; i++) row.set(i, data, f.argStart[i] as number, f.argEnd[i] as number);
    (this.keys as CommandKeys).track(row, n);
  }
}

function countLines(buf: Buffer, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) if (buf[i] === 10) n++;
  return n;
}
