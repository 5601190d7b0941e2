import { InputError, type SourceOptions } from '../types';
import type { BatchSink } from './batchSink';
import { KeyRecordWriter } from './keyRecord';
import type { ChunkParser } from './parseStream';
import { invalidUtf8At } from './utf8';

const LF = 10;
const CR = 13;
const FIELDS = new Set(['key', 'key_b64', 'type', 'ttl_ms', 'part', 'value', 'value_b64']);

/**
 * An export's ndjson (docs/export.md): one `{key|key_b64, type, ttl_ms, [part], value|value_b64}`
 * per line, each written back as its type's commands (KeyRecordWriter). Blank lines are skipped.
 */
export function keysNdjsonParser(opts: SourceOptions, sink: BatchSink): ChunkParser {
  return new KeysNdjsonParser(opts, sink);
}

class KeysNdjsonParser implements ChunkParser {
  records = 0;
  private line = 1;
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
      let end = data.indexOf(LF, pos);
      let next = end + 1;
      if (end < 0) {
        if (!final) break;
        end = data.length;
        next = end;
      }
      const e = end > pos && data[end - 1] === CR ? end - 1 : end;
      if (data.subarray(pos, e).some((b) => b !== 32 && b !== 9)) {
        this.record(data, pos, e);
        this.records++;
      }
      this.line++;
      pos = next;
      this.sink.advance(this.records, pos);
    }
    return pos;
  }

  finish(): void {}

  private record(data: Buffer, start: number, end: number): void {
    const fail = (field: string, message: string): never => this.writer.fail(this.line, field, message);
    if (invalidUtf8At(data, start, end) >= 0)
      fail('line', 'is not valid UTF-8 (JSON text is UTF-8; binary keys and values are written as key_b64 / value_b64)');
    let o: unknown;
    try {
      o = JSON.parse(data.toString('utf8', start, end));
    } catch (e) {
      throw new InputError({ file: this.writer.file, line: this.line }, `line: not JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return fail('line', 'must be a JSON object {key, type, ttl_ms, value}');
    const r = o as Record<string, unknown>;
    for (const f of Object.keys(r)) if (!FIELDS.has(f)) fail(f, `is not a field of an exported key (${[...FIELDS].join(', ')})`);
    if ('key' in r === 'key_b64' in r) fail('key', 'one of key or key_b64 is required');
    if ('value' in r === 'value_b64' in r) fail('value', 'one of value or value_b64 is required');
    const key = r.key ?? r.key_b64;
    if (typeof key !== 'string') fail('key_b64' in r ? 'key_b64' : 'key', 'must be a string');
    this.writer.write(
      {
        key: key as string,
        keyBase64: 'key_b64' in r,
        type: r.type,
        ttlMs: r.ttl_ms,
        part: r.part,
        value: r.value ?? r.value_b64,
        valueBase64: 'value_b64' in r,
      },
      this.line,
    );
  }
}
