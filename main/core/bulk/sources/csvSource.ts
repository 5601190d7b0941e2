import { InputError, type SourceOptions } from '../types';
import type { BatchSink } from './batchSink';
import { MappingEncoder } from './mapping';
import type { ChunkParser } from './parseStream';
import { Row } from './row';
import { Scratch } from './scratch';
import type { SourceHooks } from './sourceHooks';
import { invalidUtf8At, locate, showByte } from './utf8';

const LF = 10;
const CR = 13;
const QUOTE = 34;
const COMMA = 44;
const TAB = 9;
const NEED_MORE = -1;

/**
 * CSV (RFC 4180) and TSV rows → commands through the mapping.
 *
 * CSV: fields split on commas; a field that starts with `"` is quoted and may
 * hold commas, newlines and `""` for a quote; the closing quote must be
 * followed by a comma or the end of the line. A `"` inside an unquoted field
 * is taken literally, as most CSV writers and readers do.
 *
 * TSV: fields split on tabs, no quoting at all (a quote is data), so a value
 * can't hold a tab or a newline: the IANA text/tab-separated-values rule.
 *
 * Both: the first row is the header; rows end with LF or CRLF; empty lines are
 * skipped; every row must have as many fields as the header. Values are bytes
 * and pass through untouched; header names and key columns must be UTF-8.
 * Lines count physical lines, so a quoted newline moves the next row down.
 */
export function csvParser(opts: SourceOptions, sink: BatchSink, hooks: SourceHooks = {}): ChunkParser {
  return new CsvParser(opts, sink, hooks, opts.format === 'tsv' ? TAB : COMMA, opts.format !== 'tsv');
}

class CsvParser implements ChunkParser {
  records = 0;
  private line = 1;
  private encoder: MappingEncoder | undefined;
  private columns = 0;
  private readonly row = new Row();
  /** Input offset of each field's first byte (its quote, when quoted): for error columns. */
  private fieldAt = new Int32Array(16);
  /** Unescaped bytes of quoted fields holding `""`. */
  private readonly scratch = new Scratch();
  private rowData: Buffer = Buffer.alloc(0);
  private rowStart = 0;
  private rowLine = 1;
  // Next LF and delimiter at or after the scan position in the current data; -1: not looked up yet.
  private nextLf = -1;
  private nextDelim = -1;

  constructor(
    private readonly opts: SourceOptions,
    private readonly sink: BatchSink,
    private readonly hooks: SourceHooks,
    private readonly delimiter: number,
    private readonly quoting: boolean,
  ) {}

  parse(data: Buffer, final: boolean): number {
    const end = data.length;
    let pos = 0;
    this.nextLf = -1;
    this.nextDelim = -1;
    while (pos < end) {
      // An empty line is not a row (a one-column CSV can't have empty values, a fair price).
      if (data[pos] === LF) {
        pos++;
        this.line++;
        continue;
      }
      if (data[pos] === CR) {
        if (pos + 1 === end && !final) break;
        if (pos + 1 === end || data[pos + 1] === LF) {
          pos += 2;
          this.line++;
          continue;
        }
      }
      this.rowData = data;
      this.rowStart = pos;
      this.rowLine = this.line;
      const next = this.readRow(data, pos, end, final);
      if (next === NEED_MORE) break;
      this.endRow();
      pos = next;
      this.sink.advance(this.records, pos);
    }
    return final ? end : pos;
  }

  finish(): void {
    this.encoder?.finish();
  }

  private endRow(): void {
    const row = this.row;
    if (this.encoder === undefined) {
      this.header();
      return;
    }
    if (row.count !== this.columns) {
      throw new InputError(
        { file: this.opts.file, line: this.rowLine },
        `row has ${row.count} column${row.count === 1 ? '' : 's'}, header has ${this.columns}`,
      );
    }
    this.records++;
    this.encoder.row(row, this.rowLine);
  }

  private header(): void {
    const row = this.row;
    const names: string[] = [];
    for (let i = 0; i < row.count; i++) {
      const buf = row.bufs[i] as Buffer;
      const s = row.starts[i] as number;
      const e = row.ends[i] as number;
      if (invalidUtf8At(buf, s, e) >= 0) this.fail(i, `header column ${i + 1} is not valid UTF-8`);
      names.push(buf.toString('utf8', s, e));
    }
    this.columns = names.length;
    this.hooks.onColumns?.(names);
    this.encoder = new MappingEncoder(
      this.opts.mapping,
      names,
      { file: this.opts.file, headerLine: this.rowLine },
      this.sink,
      this.opts.tracker,
      (col, message) => this.fail(col, message),
      this.opts.msetPairs,
    );
  }

  private fail(col: number, message: string): never {
    this.failAt(this.fieldAt[col] ?? this.rowStart, message);
  }

  private failAt(offset: number, message: string): never {
    const at = locate(this.rowData, this.rowStart, this.rowLine, offset);
    throw new InputError({ file: this.opts.file, line: at.line, column: at.column }, message);
  }

  /**
   * Fields of the row at pos into this.row; returns the offset past its line
   * end, or NEED_MORE. Finds delimiters, line ends and closing quotes with
   * Buffer#indexOf (memchr), caching the next hit of each across fields and
   * rows: a JS byte loop over 100-byte values costs four times as much.
   */
  private readRow(data: Buffer, pos: number, end: number, final: boolean): number {
    const row = this.row;
    const delim = this.delimiter;
    let n = 0;
    let p = pos;
    let newlines = 0; // inside quoted fields
    this.scratch.reset();
    for (;;) {
      if (n === this.fieldAt.length) {
        const grown = new Int32Array(2 * n);
        grown.set(this.fieldAt);
        this.fieldAt = grown;
      }
      this.fieldAt[n] = p;
      if (this.quoting && p < end && data[p] === QUOTE) {
        let q = p + 1;
        let escaped = false;
        if (this.nextLf < p) this.nextLf = nextOf(data, LF, p, end);
        for (;;) {
          q = nextOf(data, QUOTE, q, end);
          // Newlines inside the quotes move the line count.
          while (this.nextLf < q) {
            newlines++;
            this.nextLf = nextOf(data, LF, this.nextLf + 1, end);
          }
          if (q >= end) {
            if (!final) return NEED_MORE;
            const at = locate(data, pos, this.rowLine, p);
            throw new InputError(
              { file: this.opts.file, line: this.line + newlines },
              `unterminated quoted field: the quote opened at line ${at.line}, column ${at.column} is never closed`,
            );
          }
          if (q + 1 < end && data[q + 1] === QUOTE) {
            escaped = true;
            q += 2;
            continue;
          }
          if (q + 1 >= end && !final) return NEED_MORE;
          break;
        }
        if (escaped) this.unescape(n++, data, p + 1, q);
        else row.set(n++, data, p + 1, q);
        const a = q + 1;
        const c = data[a];
        if (c === delim) {
          p = a + 1;
          continue;
        }
        if (a >= end) {
          row.count = n;
          this.line += newlines;
          return end;
        }
        if (c === LF || (c === CR && data[a + 1] === LF)) {
          row.count = n;
          this.line += newlines + 1;
          return c === LF ? a + 1 : a + 2;
        }
        if (c === CR && a + 1 >= end) {
          if (!final) return NEED_MORE;
          row.count = n;
          return end;
        }
        this.failAt(a, `expected '${delim === TAB ? '\\t' : ','}' or the end of the line after a closing quote, got ${showByte(c)}`);
      }
      if (this.nextDelim < p) this.nextDelim = nextOf(data, delim, p, end);
      if (this.nextLf < p) this.nextLf = nextOf(data, LF, p, end);
      const q = this.nextDelim < this.nextLf ? this.nextDelim : this.nextLf;
      if (q < end && q === this.nextDelim) {
        row.set(n++, data, p, q);
        p = q + 1;
        continue;
      }
      if (q >= end && !final) return NEED_MORE;
      // The line's end (or the input's): drop the CR of a CRLF.
      const e = q > p && data[q - 1] === CR ? q - 1 : q;
      row.set(n++, data, p, e);
      row.count = n;
      if (q >= end) {
        this.line += newlines;
        return end;
      }
      this.line += newlines + 1;
      return q + 1;
    }
  }

  /** A quoted field with `""` in it, unescaped into scratch. */
  private unescape(i: number, data: Buffer, start: number, end: number): void {
    const scratch = this.scratch;
    scratch.reserve(end - start);
    const out = scratch.buf;
    const s = scratch.len;
    let w = s;
    for (let r = start; r < end; r++) {
      const c = data[r] as number;
      out[w++] = c;
      if (c === QUOTE) r++; // the second quote of a ""
    }
    scratch.len = w;
    this.row.set(i, out, s, w);
  }
}

/** Offset of the next byte b in data from `from`, or end when there is none. */
function nextOf(data: Buffer, b: number, from: number, end: number): number {
  const i = data.indexOf(b, from);
  return i < 0 ? end : i;
}
