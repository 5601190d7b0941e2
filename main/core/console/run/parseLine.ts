import { AppError } from '../../../../app/errors';
import { columnOf, Row, Scratch, splitArgs } from '../../bulk/index';

/** One typed line split into arguments (redis-cli's rules): their bytes, what Redis gets, and as text. */
export interface ParsedLine {
  args: Buffer[];
  /** UTF-8 text of each argument, for the catalog and redaction; a byte that is not UTF-8 reads as U+FFFD here, never in `args`. */
  text: string[];
}

/**
 * A console line split as redis-cli splits it, with the bulk command files' own parser
 * (splitArgs): the same quoting rules everywhere. Malformed quoting is a VALIDATION error on
 * `line` naming the column; an empty line is one too.
 */
export function parseLine(line: string): ParsedLine {
  const data = Buffer.from(line, 'utf8');
  const row = new Row();
  const column = (offset: number): number => columnOf(data, 0, offset);
  const fail = (offset: number, message: string): never => {
    throw new AppError('VALIDATION', `Column ${column(offset)}: ${message}`, 'line');
  };
  const argc = splitArgs(data, 0, data.length, row, new Scratch(Math.max(64, data.length)), fail, column);
  if (argc === 0) throw new AppError('VALIDATION', 'Type a command', 'line');
  const args: Buffer[] = [];
  for (let i = 0; i < argc; i++) {
    // Views: the line's buffer and this call's scratch are used by nothing else.
    args.push((row.bufs[i] as Buffer).subarray(row.starts[i], row.ends[i]));
  }
  return { args, text: args.map((a) => a.toString('utf8')) };
}
