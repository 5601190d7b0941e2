import { CSV_COLUMNS } from '../../export';
import type { SourceOptions } from '../types';
import type { BatchSink } from './batchSink';
import { KeyRecordWriter } from './keyRecord';
import type { ChunkParser } from './parseStream';
import { invalidUtf8At } from './utf8';

const LF = 10;
const CR = 13;
const QUOTE = 34;
const COMMA = 44;

/**
 * An export's csv (docs/export.md): RFC 4180 rows under the header
 * `key,key_encoding,type,ttl_ms,part,value_encoding,value` (columns found by name, so their
 * order may change); a string's value is its text, any other type's the ndjson value's JSON.
 * Each row is written back as its type's commands (KeyRecordWriter). Lines count physical
 * lines, so a quoted newline moves the next row down.
 */
export function keysCsvParser(opts: SourceOptions, sink: BatchSink): ChunkParser {
  return new KeysCsvParser(opts, sink);
}

class KeysCsvParser implements ChunkParser {
  records = 0;
  private line = 1;
  private column: Map<string, number> | undefined;
  private readonly writer: KeyRecordWriter;

  constructor(
    opts: SourceOptions,
    private readonly sink: BatchSink,
  ) {
    this.writer = new KeyRecordWriter(opts, sink);
  }

  parse(data: Buffer, final: boolean): number {
    let pos = 0;
    while (pos < data.length) {
      const row = readRow(data, pos, final);
      if (row === null) break;
      const at = this.line;
      if (row.fields.length > 1 || row.fields[0] !== '') {
        if (invalidUtf8At(data, pos, row.next) >= 0) this.writer.fail(at, 'line', 'is not valid UTF-8 (binary keys and values are written base64)');
        if (row.unclosed) this.writer.fail(at, 'line', 'a quoted field is not closed before the end of the file');
        if (row.stray !== undefined)
          this.writer.fail(
            at + row.stray.line - 1,
            'line',
            `column ${row.stray.column}: a closing quote must be followed by a comma or the end of the line (write "" for a quote inside a field)`,
          );
        if (this.column === undefined) this.header(row.fields, at);
        else {
          this.record(row.fields, at);
          this.records++;
        }
      }
      this.line += row.lines;
      pos = row.next;
      this.sink.advance(this.records, pos);
    }
    return pos;
  }

  finish(): void {}

  private header(fields: string[], line: number): void {
    this.column = new Map(fields.map((f, i) => [f.trim(), i]));
    const missing = CSV_COLUMNS.filter((c) => c !== 'part' && !this.column?.has(c));
    if (missing.length > 0)
      this.writer.fail(
        line,
        missing[0] as string,
        `the header must name the columns ${CSV_COLUMNS.join(',')} (an export's csv); missing: ${missing.join(', ')}`,
      );
  }

  private record(fields: string[], line: number): void {
    const cols = this.column as Map<string, number>;
    if (fields.length !== cols.size) this.writer.fail(line, 'line', `has ${fields.length} fields; the header has ${cols.size}`);
    const get = (c: string): string => fields[cols.get(c) ?? -1] ?? '';
    const encoding = (c: string): boolean => {
      const e = get(c);
      if (e !== 'text' && e !== 'base64') this.writer.fail(line, c, `must be text or base64, not ${JSON.stringify(e)}`);
      return e === 'base64';
    };
    const keyBase64 = encoding('key_encoding');
    const valueBase64 = encoding('value_encoding');
    const type = get('type');
    const int = (c: string): number | null => {
      const t = get(c);
      if (t === '') return null;
      if (!/^\d+$/.test(t)) this.writer.fail(line, c, `must be a whole number, not ${JSON.stringify(t)}`);
      return Number(t);
    };
    let value: unknown = get('value');
    if (type !== 'string') {
      try {
        value = JSON.parse(value as string);
      } catch (e) {
        this.writer.fail(line, 'value', `a ${type} value must be JSON (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    this.writer.write({ key: get('key'), keyBase64, type, ttlMs: int('ttl_ms'), part: int('part'), value, valueBase64 }, line);
  }
}

/**
 * One RFC 4180 row from `pos`: its fields, the offset after its line end, and the physical lines
 * it took; null when the row may continue past the data (not final).
 */
/**
 * `stray`: where a character after a closing quote is not `,` or the line's end: the line within
 * the row (1 for its first) and the column in bytes of that line (1-based).
 */
function readRow(
  data: Buffer,
  pos: number,
  final: boolean,
): { fields: string[]; next: number; lines: number; unclosed: boolean; stray?: { line: number; column: number } } | null {
  const fields: string[] = [];
  let lines = 1;
  let i = pos;
  for (;;) {
    if (data[i] === QUOTE) {
      const parts: string[] = [];
      let from = i + 1;
      i = from;
      for (;;) {
        const q = data.indexOf(QUOTE, i);
        if (q < 0) {
          if (!final) return null;
          parts.push(data.toString('utf8', from, data.length));
          fields.push(parts.join(''));
          return { fields, next: data.length, lines, unclosed: true };
        }
        for (let j = i; j < q; j++) if (data[j] === LF) lines++;
        if (data[q + 1] === QUOTE) {
          parts.push(data.toString('utf8', from, q + 1));
          i = from = q + 2;
          continue;
        }
        if (q + 1 >= data.length && !final) return null;
        parts.push(data.toString('utf8', from, q));
        i = q + 1;
        break;
      }
      fields.push(parts.join(''));
      const c = data[i];
      if (c !== undefined && c !== COMMA && c !== LF && c !== CR) {
        // RFC 4180: a closing quote ends the field. Whatever follows it would be silently lost.
        const end = data.indexOf(LF, i);
        if (end < 0 && !final) return null;
        const lineStart = Math.max(pos, data.lastIndexOf(LF, i - 1) + 1);
        return { fields, next: end < 0 ? data.length : end + 1, lines, unclosed: false, stray: { line: lines, column: i - lineStart + 1 } };
      }
    } else {
      let j = i;
      while (j < data.length && data[j] !== COMMA && data[j] !== LF) j++;
      if (j >= data.length && !final) return null;
      const e = j > i && data[j] === LF && data[j - 1] === CR ? j - 1 : j;
      fields.push(data.toString('utf8', i, e));
      i = j;
    }
    if (data[i] === COMMA) {
      i++;
      continue;
    }
    if (data[i] === CR && data[i + 1] === LF) i++;
    else if (data[i] === CR && i + 1 >= data.length && !final) return null;
    return { fields, next: Math.min(data.length, i + 1), lines, unclosed: false };
  }
}
