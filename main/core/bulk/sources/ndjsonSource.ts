import { InputError, type SourceOptions } from '../types';
import type { BatchSink } from './batchSink';
import { FLAT_MAX_FIELDS, readFlatObject } from './flatJson';
import { loneSurrogateAt, repeatedKey } from './jsonLosses';
import { jsonProblem } from './jsonProblem';
import { MappingEncoder, mappingColumns } from './mapping';
import type { ChunkParser } from './parseStream';
import { Row } from './row';
import { Scratch } from './scratch';
import type { SourceHooks } from './sourceHooks';
import { templateColumns } from './keyTemplate';
import { columnOf, invalidUtf8At, showByte } from './utf8';

const LF = 10;
const CR = 13;

type JsonObject = Record<string, unknown>;

/**
 * One JSON object per line (blank lines skipped) → commands through the
 * mapping. Values become bytes this way: strings as they are (UTF-8),
 * numbers and booleans as JavaScript prints them, objects and arrays as
 * compact JSON. Numbers pass through a double, so integers beyond 2^53 lose
 * digits: quote them in the file. A field the mapping names must be present
 * and not null; a hash taking all fields skips null ones (HSET has no null).
 * Nothing is changed silently: a line that is not valid UTF-8 (JSON text is UTF-8, RFC 8259
 * §8.1; decoding it would put U+FFFD in place of the bytes), a lone surrogate escape (UTF-8
 * has no bytes for it) and a key an object repeats where the load reads it (JSON.parse keeps
 * the last) are refused at their line and column.
 *
 * Most lines never become strings: readFlatObject takes flat objects of
 * plain values straight from the bytes, and hands anything else (escapes,
 * nesting, floats, errors) to JSON.parse, so both paths give the same bytes.
 */
export function ndjsonParser(opts: SourceOptions, sink: BatchSink, hooks: SourceHooks = {}): ChunkParser {
  return new NdjsonParser(opts, sink, hooks);
}

class NdjsonParser implements ChunkParser {
  records = 0;
  private line = 1;
  private encoder: MappingEncoder | undefined;
  /** Fields read into the row's first columns, in order. */
  private named: string[] = [];
  private namedSet = new Set<string>();
  /** hash without `fields`: every other field of each object follows as a named column. */
  private dynamic = false;
  /** Whether the load reads a top-level field (for repeated keys): all of them without a mapping or for a hash taking all. */
  private readonly reads: (field: string) => boolean = () => true;
  private readonly row = new Row();
  /** Field names as bytes, for readFlatObject; undefined when that path can't serve the mapping. */
  private flatNames: Buffer[] | undefined;
  private readonly scratch = new Scratch();
  private lineText = '';

  constructor(
    private readonly opts: SourceOptions,
    private readonly sink: BatchSink,
    private readonly hooks: SourceHooks,
  ) {
    const m = opts.mapping;
    if (m !== undefined) {
      this.named = mappingColumns(m);
      this.dynamic = m.type === 'hash' && m.fields === undefined;
      if (this.dynamic) this.namedSet = new Set(templateColumns(m.key));
      // The byte-level reader serves fixed fields; the first object goes through JSON.parse for onColumns.
      else if (this.named.length <= FLAT_MAX_FIELDS) this.flatNames = this.named.map((n) => Buffer.from(n, 'utf8'));
      if (!this.dynamic) {
        const read = new Set(this.named);
        this.reads = (field) => read.has(field);
      }
      this.encoder = this.makeEncoder();
    }
  }

  parse(data: Buffer, final: boolean): number {
    const end = data.length;
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
      while (first < e && (data[first] === 32 || data[first] === 9)) first++;
      if (first < e) {
        if (this.flatNames !== undefined && this.records > 0 && readFlatObject(data, first, e, this.flatNames, this.row)) {
          this.records++;
          (this.encoder as MappingEncoder).row(this.row, this.line);
        } else {
          const text = data.toString('utf8', pos, e);
          // Malformed bytes decode to U+FFFD; most lines have none, so only those are checked.
          if (text.includes('\uFFFD')) this.utf8(data, pos, e);
          this.object(text);
        }
      }
      this.line++;
      pos = next;
      this.sink.advance(this.records, pos);
    }
    return pos;
  }

  finish(): void {
    this.encoder?.finish();
  }

  /** Refuses a line that is not UTF-8 at its first bad byte (the decode put U+FFFD there). */
  private utf8(data: Buffer, start: number, end: number): void {
    const bad = invalidUtf8At(data, start, end);
    if (bad < 0) return; // a U+FFFD written in the file as such
    throw new InputError(
      { file: this.opts.file, line: this.line, column: columnOf(data, start, bad) },
      `byte ${showByte(data[bad])} is not valid UTF-8, and JSON text must be (RFC 8259); for binary values use --format resp or commands, or base64 them`,
    );
  }

  private object(text: string): void {
    this.lineText = text;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      const problem = jsonProblem(text, e);
      throw this.error(problem.message, problem.index);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      const got = Array.isArray(value) ? 'an array' : value === null ? 'null' : typeof value;
      throw this.error(`expected a JSON object, got ${got}`, text.search(/\S/));
    }
    const lone = loneSurrogateAt(text);
    if (lone >= 0) throw this.error(`escape ${text.slice(lone, lone + 6)} is half of a surrogate pair, and UTF-8 has no bytes for it alone`, lone);
    const repeated = repeatedKey(text, value, this.reads);
    if (repeated !== null) {
      const at = this.column(repeated.first);
      throw this.error(`key '${repeated.key}' appears twice in the object (first at column ${at}); only the last would be loaded`, repeated.index);
    }
    const obj = value as JsonObject;
    if (this.encoder === undefined) {
      // No mapping (a preview before one is chosen): show the first object's fields as they are.
      this.named = Object.keys(obj);
      this.hooks.onColumns?.(this.named);
      this.encoder = this.makeEncoder();
    } else if (this.records === 0) {
      this.hooks.onColumns?.(Object.keys(obj));
    }
    this.fill(obj);
    this.records++;
    this.encoder.row(this.row, this.line);
  }

  private fill(obj: JsonObject): void {
    const row = this.row;
    const scratch = this.scratch;
    const raw = this.opts.mapping === undefined;
    scratch.reset();
    const named = this.named;
    let n = 0;
    for (; n < named.length; n++) {
      const name = named[n] as string;
      const v = Object.hasOwn(obj, name) ? obj[name] : undefined;
      if (v === undefined || v === null) {
        if (!raw) throw this.error(`field '${name}' is ${v === null ? 'null' : 'missing'}`);
        row.set(n, scratch.buf, 0, 0);
        continue;
      }
      this.put(n, v);
    }
    if (this.dynamic) {
      for (const name of Object.keys(obj)) {
        const v = obj[name];
        if (this.namedSet.has(name) || v === undefined || v === null) continue;
        const nameStart = scratch.writeString(name);
        row.setName(n, scratch.buf, nameStart, scratch.len);
        this.put(n++, v);
      }
    }
    row.count = n;
  }

  /** Column i := the value's bytes, appended to scratch. */
  private put(i: number, v: unknown): void {
    const s = typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
    const start = this.scratch.writeString(s);
    this.row.set(i, this.scratch.buf, start, this.scratch.len);
  }

  private makeEncoder(): MappingEncoder {
    return new MappingEncoder(
      this.opts.mapping,
      this.named,
      { file: this.opts.file, dynamicFields: this.dynamic },
      this.sink,
      this.opts.tracker,
      (_col, message) => {
        throw this.error(message);
      },
      this.opts.msetPairs,
    );
  }

  /** An InputError on the current line; `index` is a UTF-16 index into the line's text. */
  private error(message: string, index?: number): InputError {
    const column = index === undefined || index < 0 ? undefined : this.column(index);
    return new InputError({ file: this.opts.file, line: this.line, ...(column === undefined ? {} : { column }) }, message);
  }

  /** The 1-based column (in characters, as an editor counts) of a UTF-16 index into the line's text. */
  private column(index: number): number {
    return [...this.lineText.slice(0, index)].length + 1;
  }
}
