import { InputError, type SourceOptions } from '../types';
import type { BatchSink } from './batchSink';

/** The types an export writes (docs/export.md). */
const TYPES = ['string', 'hash', 'list', 'set', 'zset', 'stream'] as const;
type RecordType = (typeof TYPES)[number];
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** A stream entry id as XADD takes it (ms-seq). */
const STREAM_ID = /^\d+-\d+$/;

/** One exported line, fields still as read (JSON values), before it is checked. */
export interface RawKeyRecord {
  key: string;
  keyBase64: boolean;
  type: unknown;
  ttlMs: unknown;
  part: unknown;
  value: unknown;
  valueBase64: boolean;
}

/** A checked record, ready to write: every string already its bytes. */
interface KeyRecord {
  key: Buffer;
  type: RecordType;
  ttlMs: number | null;
  part: number;
  /** Arguments of the write command(s) after the key: one list per command. */
  writes: Array<{ command: string; args: Buffer[] }>;
}

/**
 * An exported key's line → commands, for keys-ndjson and keys-csv: the first part of a key
 * replaces it (DEL, then the write; a string's SET replaces by itself), each further part of a
 * big value adds to it (APPEND, HSET, RPUSH, SADD, ZADD, XADD), and a TTL is set after each
 * (PEXPIRE, relative: the key lives as long as it had left when exported, counted from the
 * load). Everything is checked before any command is written, so a malformed line stops the load
 * at that line with nothing of it sent, and the error names the line and the field.
 */
export class KeyRecordWriter {
  constructor(
    private readonly opts: SourceOptions,
    private readonly sink: BatchSink,
  ) {}

  get file(): string {
    return this.opts.file;
  }

  fail(line: number, field: string, message: string): never {
    throw new InputError({ file: this.opts.file, line }, `${field}: ${message}`);
  }

  write(raw: RawKeyRecord, line: number): void {
    const r = this.check(raw, line);
    const out = this.sink.out;
    if (r.part === 0 && r.type !== 'string') {
      out.command(2).arg('DEL').argBytes(r.key, 0, r.key.length);
      this.sink.commit(line);
    }
    for (const w of r.writes) {
      out
        .command(2 + w.args.length)
        .arg(w.command)
        .argBytes(r.key, 0, r.key.length);
      for (const a of w.args) out.argBytes(a, 0, a.length);
      this.sink.commit(line);
    }
    if (r.ttlMs !== null) {
      out.command(3).arg('PEXPIRE').argBytes(r.key, 0, r.key.length).argNumber(r.ttlMs);
      this.sink.commit(line);
    }
    this.opts.tracker?.add(r.key, 0, r.key.length);
  }

  private check(raw: RawKeyRecord, line: number): KeyRecord {
    const fail = (field: string, message: string): never => this.fail(line, field, message);
    const key = this.bytes(raw.key, raw.keyBase64, raw.keyBase64 ? 'key_b64' : 'key', line);
    if (typeof raw.type !== 'string' || !(TYPES as readonly string[]).includes(raw.type)) {
      fail('type', `must be one of ${TYPES.join(', ')}, not ${JSON.stringify(raw.type)}`);
    }
    const type = raw.type as RecordType;
    const ttlMs = raw.ttlMs === null || raw.ttlMs === undefined ? null : raw.ttlMs;
    if (ttlMs !== null && (typeof ttlMs !== 'number' || !Number.isSafeInteger(ttlMs) || ttlMs <= 0)) {
      fail('ttl_ms', `must be a whole number of milliseconds above 0, or null for no TTL, not ${JSON.stringify(raw.ttlMs)}`);
    }
    const part = raw.part ?? 0;
    if (typeof part !== 'number' || !Number.isSafeInteger(part) || part < 0) fail('part', `must be a whole number from 0, not ${JSON.stringify(raw.part)}`);
    const vf = raw.valueBase64 ? 'value_b64' : 'value';
    const str = (v: unknown, where: string): Buffer => {
      if (typeof v !== 'string') return fail(vf, `${where} must be a string, not ${JSON.stringify(v) ?? typeof v}`);
      return this.bytes(v, raw.valueBase64, vf, line);
    };
    const v = raw.value;
    const nonEmpty = <T>(a: T[]): T[] => (a.length === 0 ? fail(vf, `a ${type} value must not be empty (Redis holds no empty ${type})`) : a);
    const writes: KeyRecord['writes'] = [];
    switch (type) {
      case 'string':
        writes.push({ command: (part as number) === 0 ? 'SET' : 'APPEND', args: [str(v, 'a string value')] });
        break;
      case 'hash': {
        if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(vf, 'a hash value must be an object of field: value');
        const args = nonEmpty(Object.entries(v as Record<string, unknown>)).flatMap(([f, x]) => [
          this.bytes(f, raw.valueBase64, vf, line),
          str(x, `field ${JSON.stringify(f)}`),
        ]);
        writes.push({ command: 'HSET', args });
        break;
      }
      case 'list':
      case 'set': {
        if (!Array.isArray(v)) fail(vf, `a ${type} value must be an array of strings`);
        const args = nonEmpty(v as unknown[]).map((x, i) => str(x, `item ${i}`));
        writes.push({ command: type === 'list' ? 'RPUSH' : 'SADD', args });
        break;
      }
      case 'zset': {
        if (!Array.isArray(v)) fail(vf, 'a zset value must be an array of [member, score]');
        const args = nonEmpty(v as unknown[]).flatMap((x, i) => {
          if (!Array.isArray(x) || x.length !== 2) return fail(vf, `item ${i} must be [member, score]`);
          return [
            Buffer.from(scoreText(x[1], () => fail(vf, `item ${i}: the score must be a number, "inf" or "-inf", not ${JSON.stringify(x[1])}`))),
            str(x[0], `item ${i}'s member`),
          ];
        });
        writes.push({ command: 'ZADD', args });
        break;
      }
      case 'stream': {
        if (!Array.isArray(v)) fail(vf, 'a stream value must be an array of [id, {field: value}]');
        for (const [i, x] of nonEmpty(v as unknown[]).entries()) {
          if (!Array.isArray(x) || x.length !== 2 || typeof x[0] !== 'string' || !STREAM_ID.test(x[0]))
            fail(vf, `entry ${i} must be ["<ms>-<seq>", {field: value}]`);
          const [id, fields] = x as [string, unknown];
          if (typeof fields !== 'object' || fields === null || Array.isArray(fields) || Object.keys(fields).length === 0)
            fail(vf, `entry ${i} (${id}) must have an object of at least one field`);
          const args = [
            Buffer.from(id),
            ...Object.entries(fields as Record<string, unknown>).flatMap(([f, x2]) => [
              this.bytes(f, raw.valueBase64, vf, line),
              str(x2, `entry ${id}'s field`),
            ]),
          ];
          writes.push({ command: 'XADD', args });
        }
        break;
      }
    }
    return { key, type, ttlMs: ttlMs as number | null, part: part as number, writes };
  }

  /** Text as its UTF-8 bytes, or base64 decoded (checked: Buffer.from would skip bad characters silently). */
  private bytes(s: string, base64: boolean, field: string, line: number): Buffer {
    if (!base64) return Buffer.from(s, 'utf8');
    if (!BASE64.test(s)) this.fail(line, field, `${JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s)} is not base64`);
    return Buffer.from(s, 'base64');
  }
}

function scoreText(s: unknown, bad: () => never): string {
  if (typeof s === 'number' && Number.isFinite(s)) return String(s);
  if (s === 'inf' || s === '+inf') return '+inf';
  if (s === '-inf') return '-inf';
  return bad();
}
