import { takesKey } from '../../../app/redis/commands';

/** Longest argument kept for display; MONITOR repeats values verbatim, and values can be megabytes. */
export const MAX_ARG_CHARS = 1024;
/** Arguments kept per line; the rest are counted. An MSET of 100k pairs is one line. */
export const MAX_ARGS = 64;

export interface MonitorEntry {
  /** Server time, milliseconds since the epoch (with microseconds as the fraction). */
  ts: number;
  db: number;
  /** "127.0.0.1:52344", "lua", "unix:/tmp/redis.sock". */
  client: string;
  /** Upper-cased command name, e.g. "SET", "CLIENT". */
  command: string;
  /**
   * The arguments after the command as the server escaped them (`\"`, `\\`, `\n`,
   * `\xff`…): printable ASCII only, so they are safe, unambiguous display text.
   */
  args: string[];
  /** Arguments beyond MAX_ARGS, not kept. */
  moreArgs: number;
  /** Whether any kept argument was cut at MAX_ARG_CHARS. */
  truncated: boolean;
}

const SPACE = 0x20;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const DOT = 0x2e;

export class MonitorLineError extends Error {}

/**
 * Parse one MONITOR line (without the leading `+` and the CRLF):
 * `1339518083.107412 [0 127.0.0.1:60866] "set" "k" "v"`.
 *
 * One forward pass over the bytes with no regular expressions, so the cost is
 * linear in the line's length whatever it holds (quotes, escapes, a 1 MB value).
 * Redis escapes every argument with sdscatrepr, so an argument never holds a raw
 * quote, space or newline: a closing quote is a `"` not preceded by an escaping `\`.
 */
export function parseMonitorLine(line: Buffer, start = 0, end = line.length): MonitorEntry {
  let i = start;
  // Timestamp: seconds.micros
  let secs = 0;
  let micros = 0;
  let digits = 0;
  while (i < end && line[i] !== DOT && line[i] !== SPACE) {
    secs = secs * 10 + digit(line, i++);
    digits++;
  }
  if (digits === 0) throw new MonitorLineError('no timestamp');
  if (line[i] === DOT) {
    i++;
    let scale = 100_000;
    while (i < end && line[i] !== SPACE) {
      micros += digit(line, i++) * scale;
      scale /= 10;
    }
  }
  i = expect(line, i, end, SPACE, 'a space after the timestamp');
  i = expect(line, i, end, LBRACKET, '[ before the DB');
  let db = 0;
  digits = 0;
  while (i < end && line[i] !== SPACE) {
    db = db * 10 + digit(line, i++);
    digits++;
  }
  if (digits === 0) throw new MonitorLineError('no DB number');
  i = expect(line, i, end, SPACE, 'a space after the DB');
  const clientStart = i;
  while (i < end && line[i] !== RBRACKET) i++;
  if (i >= end) throw new MonitorLineError('no ] after the client');
  const client = line.toString('latin1', clientStart, i);
  i++;

  let command = '';
  let seenCommand = false;
  const args: string[] = [];
  let moreArgs = 0;
  let truncated = false;
  while (i < end) {
    if (line[i] === SPACE) {
      i++;
      continue;
    }
    if (line[i] !== QUOTE) throw new MonitorLineError(`expected " at byte ${i - start}`);
    const argStart = i + 1;
    i = argStart;
    // Find the closing quote, stepping over escapes (\" and \\ included).
    while (i < end && line[i] !== QUOTE) i += line[i] === BACKSLASH ? 2 : 1;
    if (i >= end) throw new MonitorLineError('unterminated argument');
    const argEnd = i;
    i++;
    if (!seenCommand) {
      command = line.toString('latin1', argStart, Math.min(argEnd, argStart + MAX_ARG_CHARS)).toUpperCase();
      seenCommand = true;
    } else if (args.length < MAX_ARGS) {
      if (argEnd - argStart > MAX_ARG_CHARS) {
        // Cut on a boundary that does not split an escape like \x4f.
        args.push(line.toString('latin1', argStart, escapeSafeCut(line, argStart, argStart + MAX_ARG_CHARS)));
        truncated = true;
      } else {
        args.push(line.toString('latin1', argStart, argEnd));
      }
    } else {
      moreArgs++;
    }
  }
  if (!seenCommand) throw new MonitorLineError('no command');
  return { ts: secs * 1000 + micros / 1000, db, client, command, args, moreArgs, truncated };
}

function digit(line: Buffer, i: number): number {
  const d = (line[i] ?? 0) - 0x30;
  if (d < 0 || d > 9) throw new MonitorLineError(`expected a digit at byte ${i}`);
  return d;
}

function expect(line: Buffer, i: number, end: number, byte: number, what: string): number {
  if (i >= end || line[i] !== byte) throw new MonitorLineError(`expected ${what}`);
  return i + 1;
}

/** The largest cut ≤ `limit` that does not fall inside a `\x..` or `\c` escape. */
function escapeSafeCut(line: Buffer, from: number, limit: number): number {
  let i = from;
  let lastSafe = from;
  while (i < limit) {
    lastSafe = i;
    if (line[i] === BACKSLASH) i += line[i + 1] === 0x78 ? 4 : 2;
    else i++;
  }
  return i === limit ? limit : lastSafe;
}

/** The key a command line is about, as the server escaped it; undefined for keyless commands. */
export function keyOf(e: MonitorEntry): string | undefined {
  if (e.args.length === 0 || !takesKey(e.command)) return undefined;
  return e.args[0];
}
