import { AppError } from '../../../../app/errors';
import type { RespBuilder } from '../../resp/respBuilder';
import { InputError, type Mapping, type RecordType } from '../types';
import type { KeyTracker } from '../../resp/types';
import type { BatchSink } from './batchSink';
import { KeyGroups } from './keyGroups';
import { MsetRun } from './msetRun';
import { parseKeyTemplate, templateColumns } from './keyTemplate';
import { isScore } from './redisScore';
import type { Row } from './row';
import { invalidUtf8At } from './utf8';

export { GROUP_CAP } from './keyGroups';

/** Where the columns came from, for errors about the mapping against them. */
export interface MappingContext {
  file: string;
  /** csv/tsv: the header's line. Absent for ndjson, whose sources check fields per object. */
  headerLine?: number;
  /** ndjson hash without `fields`: a row's columns past the named ones are the object's other fields. */
  dynamicFields?: boolean;
}

/** Throws the InputError for a value in column `column` of the current row. */
export type FailAt = (column: number, message: string) => never;

/** The fields a mapping reads, each once: template columns, then value/member/score/fields. */
export function mappingColumns(mapping: Mapping): string[] {
  const names = templateColumns(mapping.key);
  const more = [mapping.value, mapping.member, mapping.score, ...(mapping.fields ?? [])];
  for (const n of more) if (n !== undefined && !names.includes(n)) names.push(n);
  return names;
}

const enc = (s: string): Buffer => Buffer.from(s, 'utf8');
const bulk = (s: string): Buffer => enc(`$${Buffer.byteLength(s)}\r\n${s}\r\n`);

/** Command name arguments, pre-encoded once. */
const GROUPED: Record<Exclude<RecordType, 'string'>, { name: Buffer; perElement: number }> = {
  set: { name: bulk('SADD'), perElement: 1 },
  list: { name: bulk('RPUSH'), perElement: 1 },
  zset: { name: bulk('ZADD'), perElement: 2 },
  hash: { name: bulk('HSET'), perElement: 2 },
};

const RAW = 0;
const STRING = 1;
const GROUP = 2;

/**
 * Turns rows into commands per a Mapping. Compiled once against the columns:
 * the key template becomes literal bytes and column indexes, names become
 * indexes, hash field names become pre-encoded arguments. Without a mapping
 * (preview of a tabular file before one is chosen) each row is written as
 * its values, which the preview shows as they are.
 *
 * set, zset, list and hash rows go through KeyGroups: consecutive rows of
 * one key become one variadic command (up to GROUP_CAP elements), with one
 * EXPIRE per key when there is a ttl. A command's line is its first row's.
 *
 * string rows are one SET each, with EX when there is a ttl; without a ttl
 * and when the caller allows it (`msetPairs` > 0: not for a cluster, whose
 * MSET must keep to one slot, nor for a preview, which shows a row per
 * command) they go through MsetRun as MSETs of up to msetPairs pairs.
 */
export class MappingEncoder {
  private readonly kind: number;
  private readonly sink: BatchSink;
  private readonly tracker: KeyTracker | undefined;
  private readonly fail: FailAt;
  private readonly columns: string[];

  // The key template: part i is column partCols[i], or literal partLits[i] when that is -1.
  private readonly partCols: Int32Array;
  private readonly partLits: Buffer[];
  private readonly literalBytes: number;
  private readonly keyCols: number[];

  // string
  private readonly valueCol: number = -1;
  private readonly setHead: Buffer = Buffer.alloc(0);
  private readonly setTail: Buffer | undefined;
  private readonly mset: MsetRun | undefined;

  // grouped types
  private readonly type: RecordType = 'string';
  private readonly memberCol: number = -1;
  private readonly scoreCol: number = -1;
  private readonly fieldCols: number[] = [];
  private readonly fieldNames: Buffer[] = [];
  private readonly dynamicFields: boolean;
  private readonly groups: KeyGroups | undefined;

  constructor(
    mapping: Mapping | undefined,
    columns: string[],
    ctx: MappingContext,
    sink: BatchSink,
    tracker: KeyTracker | undefined,
    fail: FailAt,
    msetPairs = 0,
  ) {
    this.sink = sink;
    this.tracker = tracker;
    this.fail = fail;
    this.columns = columns;
    this.dynamicFields = false;
    this.partCols = new Int32Array(0);
    this.partLits = [];
    this.literalBytes = 0;
    this.keyCols = [];
    if (mapping === undefined) {
      this.kind = RAW;
      return;
    }

    const headerError = (message: string): InputError =>
      new InputError({ file: ctx.file, line: ctx.headerLine ?? 1 }, `${message}; columns: ${listColumns(columns)}`);
    const indexOf = (name: string, role: string): number => {
      const i = columns.indexOf(name);
      if (i < 0) throw headerError(`${role} names column '${name}', which the ${ctx.headerLine ? 'header' : 'input'} doesn't have`);
      if (columns.lastIndexOf(name) !== i) {
        throw headerError(`${role} names column '${name}', which the header has more than once (${positionsOf(columns, name)}): which one to load is unclear`);
      }
      return i;
    };
    const required = (name: string | undefined, field: 'value' | 'member' | 'score'): string => {
      if (name !== undefined) return name;
      throw new AppError('VALIDATION', `${field} is required for type ${mapping.type}`, `mapping.${field}`);
    };

    const parts = parseKeyTemplate(mapping.key);
    this.partCols = new Int32Array(parts.length);
    let literalBytes = 0;
    parts.forEach((p, i) => {
      if ('literal' in p) {
        this.partCols[i] = -1;
        this.partLits[i] = enc(p.literal);
        literalBytes += (this.partLits[i] as Buffer).length;
      } else {
        const col = indexOf(p.column, 'key template');
        this.partCols[i] = col;
        this.partLits[i] = Buffer.alloc(0);
        if (!this.keyCols.includes(col)) this.keyCols.push(col);
      }
    });
    this.literalBytes = literalBytes;

    const ttl = mapping.ttl;
    if (ttl !== undefined && !(Number.isSafeInteger(ttl) && ttl >= 1)) {
      throw new AppError('VALIDATION', 'ttl must be a whole number of seconds, at least 1', 'mapping.ttl');
    }

    if (mapping.type === 'string') {
      this.kind = STRING;
      this.valueCol = indexOf(required(mapping.value, 'value'), 'value');
      this.setHead = enc(`*${ttl ? 5 : 3}\r\n${bulk('SET').toString()}`);
      this.setTail = ttl ? enc(`${bulk('EX').toString()}${bulk(String(ttl)).toString()}`) : undefined;
      if (!ttl && msetPairs > 0) this.mset = new MsetRun(sink, msetPairs);
      return;
    }

    this.kind = GROUP;
    this.type = mapping.type;
    this.groups = new KeyGroups(sink, tracker, { ...GROUPED[mapping.type], ttl: ttl ? bulk(String(ttl)) : undefined });
    if (mapping.type === 'hash') {
      if (mapping.fields) {
        this.fieldCols = mapping.fields.map((f) => indexOf(f, 'fields'));
      } else if (ctx.dynamicFields) {
        this.dynamicFields = true;
      } else {
        this.fieldCols = columns.map((_, i) => i).filter((i) => !this.keyCols.includes(i));
        if (this.fieldCols.length === 0) {
          throw headerError('a hash needs at least one field column, but the key template uses every column');
        }
        // HSET with one field twice keeps the last value: a repeated header name would drop a column.
        const repeated = this.fieldCols.find((i) => columns.indexOf(columns[i] as string) !== i);
        if (repeated !== undefined) {
          const name = columns[repeated] as string;
          throw headerError(
            `a hash taking every column would write field '${name}' from ${positionsOf(columns, name)} and keep only the last; rename one, or list the fields to load`,
          );
        }
      }
      this.fieldNames = this.fieldCols.map((i) => bulk(columns[i] as string));
    } else {
      this.memberCol = indexOf(required(mapping.member, 'member'), 'member');
      if (mapping.type === 'zset') this.scoreCol = indexOf(required(mapping.score, 'score'), 'score');
    }
  }

  /** Encode one row, read from line `line`. */
  row(row: Row, line: number): void {
    if (this.kind === STRING) this.stringRow(row, line);
    else if (this.kind === GROUP) this.groupRow(row, line);
    else this.rawRow(row, line);
  }

  /** End of input: close the open key group. */
  finish(): void {
    this.groups?.finish();
    this.mset?.finish();
  }

  private stringRow(row: Row, line: number): void {
    // keyLength validates, so it runs before anything is written: a batch never holds half a command.
    const keyLen = this.keyLength(row);
    const out = this.sink.out;
    const mset = this.mset;
    if (mset) mset.pair(line);
    else out.raw(this.setHead);
    out.bulkHeader(keyLen);
    const keyStart = out.offset;
    this.writeKey(row, out);
    // bulkHeader made room for the whole key, so the slab has not moved since keyStart.
    this.tracker?.add(out.bytes, keyStart, keyStart + keyLen);
    out.end();
    const v = this.valueCol;
    out.argBytes(row.bufs[v] as Buffer, row.starts[v] as number, row.ends[v] as number);
    if (mset) {
      mset.pairDone(line);
      return;
    }
    if (this.setTail) out.raw(this.setTail);
    this.sink.commit(line);
  }

  private rawRow(row: Row, line: number): void {
    const out = this.sink.out;
    out.command(row.count);
    for (let i = 0; i < row.count; i++) out.argBytes(row.bufs[i] as Buffer, row.starts[i] as number, row.ends[i] as number);
    this.sink.commit(line);
  }

  private groupRow(row: Row, line: number): void {
    const groups = this.groups as KeyGroups;
    const keyLen = this.keyLength(row);
    const keyBuf = groups.keyScratch(keyLen);
    let p = 0;
    const cols = this.partCols;
    for (let k = 0; k < cols.length; k++) {
      const c = cols[k] as number;
      const buf = c < 0 ? (this.partLits[k] as Buffer) : (row.bufs[c] as Buffer);
      const s = c < 0 ? 0 : (row.starts[c] as number);
      const e = c < 0 ? buf.length : (row.ends[c] as number);
      for (let i = s; i < e; i++) keyBuf[p++] = buf[i] as number;
    }

    const out = this.sink.out;
    switch (this.type) {
      case 'zset': {
        const sc = this.scoreCol;
        const sb = row.bufs[sc] as Buffer;
        const ss = row.starts[sc] as number;
        const se = row.ends[sc] as number;
        // Checked before the row joins its group: a bad score leaves the batch as it was.
        if (!isScore(sb, ss, se)) {
          const shown = JSON.stringify(sb.toString('utf8', ss, Math.min(se, ss + 40)));
          this.fail(sc, `score ${shown} in column '${this.columns[sc]}' is not a number`);
        }
        groups.row(keyLen, line);
        groups.element(line);
        out.argBytes(sb, ss, se);
        this.member(row, out);
        break;
      }
      case 'hash': {
        groups.row(keyLen, line);
        const cols = this.fieldCols;
        for (let k = 0; k < cols.length; k++) {
          const c = cols[k] as number;
          groups.element(line);
          out.raw(this.fieldNames[k] as Buffer);
          out.argBytes(row.bufs[c] as Buffer, row.starts[c] as number, row.ends[c] as number);
        }
        if (this.dynamicFields) {
          for (let c = this.columns.length; c < row.count; c++) {
            groups.element(line);
            out.argBytes(row.nameBufs[c] as Buffer, row.nameStarts[c] as number, row.nameEnds[c] as number);
            out.argBytes(row.bufs[c] as Buffer, row.starts[c] as number, row.ends[c] as number);
          }
        }
        break;
      }
      default:
        groups.row(keyLen, line);
        groups.element(line);
        this.member(row, out);
    }
    groups.rowDone();
  }

  private member(row: Row, out: RespBuilder): void {
    const m = this.memberCol;
    out.argBytes(row.bufs[m] as Buffer, row.starts[m] as number, row.ends[m] as number);
  }

  /** The key's byte length; key columns must be UTF-8, since keys are shown and typed as text. */
  private keyLength(row: Row): number {
    let len = this.literalBytes;
    const cols = this.keyCols;
    for (let k = 0; k < cols.length; k++) {
      const c = cols[k] as number;
      const buf = row.bufs[c] as Buffer;
      const s = row.starts[c] as number;
      const e = row.ends[c] as number;
      if (invalidUtf8At(buf, s, e) >= 0) this.fail(c, `key column '${this.columns[c]}' is not valid UTF-8`);
    }
    // A column may appear twice in the template: count each use.
    const parts = this.partCols;
    for (let k = 0; k < parts.length; k++) {
      const c = parts[k] as number;
      if (c >= 0) len += (row.ends[c] as number) - (row.starts[c] as number);
    }
    return len;
  }

  private writeKey(row: Row, out: RespBuilder): void {
    const parts = this.partCols;
    for (let k = 0; k < parts.length; k++) {
      const c = parts[k] as number;
      if (c < 0) out.raw(this.partLits[k] as Buffer);
      else out.raw(row.bufs[c] as Buffer, row.starts[c] as number, row.ends[c] as number);
    }
  }
}

/** Where a header has `name`: "columns 2 and 5" (1-based, as a spreadsheet counts). */
function positionsOf(columns: string[], name: string): string {
  const at = columns.flatMap((c, i) => (c === name ? [String(i + 1)] : []));
  return `columns ${at.slice(0, -1).join(', ')} and ${at.at(-1) ?? ''}`;
}

/** The header for an error message: enough to spot a typo, not a 10,000-column dump. */
function listColumns(columns: string[]): string {
  const shown = columns.slice(0, 20).join(', ');
  return columns.length > 20 ? `${shown}, … (${columns.length} in all)` : shown || '(none)';
}
