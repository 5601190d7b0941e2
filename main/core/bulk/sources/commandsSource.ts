import { InputError, type SourceOptions } from '../types';
import type { BatchSink } from './batchSink';
import { CommandKeys } from './commandKeys';
import type { ChunkParser } from './parseStream';
import { Row } from './row';
import { Scratch } from './scratch';
import { isSpace, splitArgs } from './splitArgs';
import { columnOf } from './utf8';

const LF = 10;
const CR = 13;
const HASH = 35;

/**
 * redis-cli style text: one command per line, arguments split and quoted as
 * redis-cli does (see splitArgs), encoded to RESP. LF or CRLF line ends.
 *
 * Blank lines and lines whose first non-blank character is `#` are skipped:
 * `redis-cli --pipe` would send a `#` line to Redis as a command (and get an
 * error), but hand-kept ops files carry comments, and no command starts with #.
 */
export function commandsParser(opts: SourceOptions, sink: BatchSink): ChunkParser {
  return new CommandsParser(opts, sink);
}

class CommandsParser implements ChunkParser {
  records = 0;
  private line = 1;
  private readonly row = new Row();
  private readonly scratch = new Scratch();
  private readonly keys: CommandKeys | undefined;
  // The line being split, for the error callbacks (bound once, not per line).
  private data: Buffer = Buffer.alloc(0);
  private lineStart = 0;
  private readonly column = (offset: number): number => columnOf(this.data, this.lineStart, offset);
  private readonly fail = (offset: number, message: string): never => {
    throw new InputError({ file: this.opts.file, line: this.line, column: this.column(offset) }, message);
  };

  constructor(
    private readonly opts: SourceOptions,
    private readonly sink: BatchSink,
  ) {
    this.keys = opts.tracker ? new CommandKeys(opts.tracker) : undefined;
  }

  parse(data: Buffer, final: boolean): number {
    const end = data.length;
    const out = this.sink.out;
    const row = this.row;
    let pos = 0;
    while (pos < end) {
      let lineEnd = data.indexOf(LF, pos);
      let next = lineEnd + 1;
      if (lineEnd < 0) {
        if (!final) break;
        lineEnd = end;
        next = end;
      }
      const e = lineEnd > pos && data[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
      let first = pos;
      while (first < e && isSpace(data[first])) first++;
      if (first < e && data[first] !== HASH) {
        this.data = data;
        this.lineStart = pos;
        const argc = splitArgs(data, pos, e, row, this.scratch, this.fail, this.column);
        out.command(argc);
        for (let i = 0; i < argc; i++) out.argBytes(row.bufs[i] as Buffer, row.starts[i] as number, row.ends[i] as number);
        this.sink.commit(this.line);
        this.keys?.track(row, argc);
        this.records++;
      }
      this.line++;
      pos = next;
      this.sink.advance(this.records, pos);
    }
    return pos;
  }

  finish(): void {}
}
