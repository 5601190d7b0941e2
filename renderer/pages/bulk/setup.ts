import type { CallInput } from '../../../app/contract';
import type { LoadOptions, Mapping } from '../../../app/schemas/bulk';
import { numberInput } from '../../lib/formInput';

export type InputFormat = NonNullable<LoadOptions['format']>;
export type LoadMode = LoadOptions['mode'];
export type RecordType = Mapping['type'];
type MappingInput = NonNullable<CallInput<'bulk.preview'>['mapping']>;

/**
 * Labels double as the option lists; `satisfies` makes the compiler hold them to
 * the contract's enums, so a format added there fails the build here.
 */
export const FORMATS = {
  resp: 'RESP (redis-cli --pipe input)',
  commands: 'Commands, one per line',
  csv: 'CSV',
  tsv: 'TSV',
  ndjson: 'NDJSON',
  'keys-ndjson': 'Cacheboard export (NDJSON: key, type, ttl, value)',
  'keys-csv': 'Cacheboard export (CSV: key, type, ttl, value)',
} as const satisfies Record<InputFormat, string>;

export const RECORD_TYPES = {
  string: 'string (SET)',
  hash: 'hash (HSET)',
  set: 'set (SADD)',
  zset: 'zset (ZADD)',
  list: 'list (RPUSH)',
} as const satisfies Record<RecordType, string>;

export const MODES = {
  swap: 'Loads into a staging DB, verifies, then SWAPDB — readers never see a partial dataset.',
  flush: 'FLUSHDB then load — readers see a partial dataset.',
  merge: 'Writes into the DB in input order.',
} as const satisfies Record<LoadMode, string>;

export const formatNames = Object.keys(FORMATS) as InputFormat[];
export const recordTypes = Object.keys(RECORD_TYPES) as RecordType[];
export const modeNames = Object.keys(MODES) as LoadMode[];

export function isTabular(f: InputFormat | undefined): boolean {
  return f === 'csv' || f === 'tsv' || f === 'ndjson';
}

/**
 * The server decides the format of an "auto" file; this guess only picks which
 * controls to show until its preview answers (or when the preview fails).
 */
export function guessFormat(name: string): InputFormat | undefined {
  const exported = /\.keys\.(ndjson|jsonl|csv)$/i.exec(name)?.[1]?.toLowerCase();
  if (exported !== undefined) return exported === 'csv' ? 'keys-csv' : 'keys-ndjson';
  const ext = /\.([A-Za-z0-9]+)(?:\.gz)?$/.exec(name)?.[1]?.toLowerCase();
  switch (ext) {
    case 'csv':
      return 'csv';
    case 'tsv':
    case 'tab':
      return 'tsv';
    case 'ndjson':
    case 'jsonl':
      return 'ndjson';
    case 'resp':
      return 'resp';
    case 'txt':
    case 'redis':
    case 'commands':
      return 'commands';
    default:
      return undefined;
  }
}

/** The mapping form as typed. */
export interface MappingValues {
  key: string;
  type: RecordType;
  value: string;
  /** Comma-separated; empty means every column the key does not use. */
  fields: string;
  member: string;
  score: string;
  ttl: string;
}

export const EMPTY_MAPPING: MappingValues = {
  key: '',
  type: 'string',
  value: '',
  fields: '',
  member: '',
  score: '',
  ttl: '',
};

function column(raw: string): string | undefined {
  const s = raw.trim();
  return s === '' ? undefined : s;
}

/** "a, b,,c " -> ["a", "b", "c"]. */
export function splitFields(raw: string): string[] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The contract's Mapping from the form: only the columns the chosen type uses,
 * empty inputs left out. Whether it is complete is the server's call (its
 * messages land beside the inputs), so nothing here duplicates its rules.
 */
export function toMapping(v: MappingValues): MappingInput {
  const m: MappingInput = { key: v.key, type: v.type };
  const value = column(v.value);
  const member = column(v.member);
  const score = column(v.score);
  const fields = splitFields(v.fields);
  const ttl = numberInput(v.ttl);
  if (v.type === 'string' && value !== undefined) m.value = value;
  if (v.type === 'hash' && fields.length > 0) m.fields = fields;
  if ((v.type === 'set' || v.type === 'list' || v.type === 'zset') && member !== undefined) m.member = member;
  if (v.type === 'zset' && score !== undefined) m.score = score;
  if (ttl !== undefined) m.ttl = ttl;
  return m;
}

/**
 * What to preview. Without a key template there is no mapping yet: the file is
 * previewed bare, which still yields its columns for the chips.
 */
export function toPreviewInput(fileId: string, format: InputFormat | '', mapping: MappingValues, tabular: boolean): CallInput<'bulk.preview'> {
  const input: CallInput<'bulk.preview'> = { fileId, rows: 10 };
  if (format !== '') input.format = format;
  if (tabular && mapping.key !== '') input.mapping = toMapping(mapping);
  return input;
}

/** Target, mode and the advanced options as typed. */
export interface TargetValues {
  mode: LoadMode;
  targetDb: string;
  stagingDb: string;
  force: boolean;
  maxErrors: string;
  bgsave: boolean;
  waitReplicas: string;
  /** swap, flush: replace a DB holding keys with an empty or much smaller one. */
  allowEmpty: boolean;
  /** Start although the data may not fit under an evicting maxmemory-policy. */
  allowEvictionRisk: boolean;
  /** swap: switch although other clients wrote to the live DB during the load (their writes are discarded). */
  allowLiveWrites: boolean;
  confirm: string;
}

export const EMPTY_TARGET: Omit<TargetValues, 'targetDb'> = {
  mode: 'swap',
  stagingDb: '',
  force: false,
  maxErrors: '',
  bgsave: false,
  waitReplicas: '',
  allowEmpty: false,
  allowEvictionRisk: false,
  allowLiveWrites: false,
  confirm: '',
};

/** swap and flush replace what readers see; the user types the DB number first. */
export function needsConfirm(mode: LoadMode): boolean {
  return mode !== 'merge';
}

/** The typed confirmation names the target DB (the server checks it again). */
export function confirmMatches(t: Pick<TargetValues, 'mode' | 'targetDb' | 'confirm'>): boolean {
  if (!needsConfirm(t.mode)) return true;
  const target = t.targetDb.trim();
  return target !== '' && /^\d+$/.test(target) && t.confirm.trim() === String(Number(target));
}

export function toLoadOptions(
  profileId: string,
  fileId: string,
  format: InputFormat | '',
  mapping: MappingValues | undefined,
  t: TargetValues,
): CallInput<'bulk.start'> {
  const o: CallInput<'bulk.start'> = { profileId, fileId, mode: t.mode };
  if (format !== '') o.format = format;
  if (mapping !== undefined) o.mapping = toMapping(mapping);
  const targetDb = numberInput(t.targetDb);
  if (targetDb !== undefined) o.targetDb = targetDb;
  if (t.mode === 'swap') {
    const stagingDb = numberInput(t.stagingDb);
    if (stagingDb !== undefined) o.stagingDb = stagingDb;
    if (t.force) o.force = true;
    if (t.allowLiveWrites) o.allowLiveWrites = true;
  }
  const maxErrors = numberInput(t.maxErrors);
  if (maxErrors !== undefined) o.maxErrors = maxErrors;
  if (t.bgsave) o.bgsave = true;
  const waitReplicas = numberInput(t.waitReplicas);
  if (waitReplicas !== undefined) o.waitReplicas = waitReplicas;
  // merge adds to the live keys: an empty input replaces nothing, so the guard has no say there.
  if (t.allowEmpty && t.mode !== 'merge') o.allowEmpty = true;
  if (t.allowEvictionRisk) o.allowEvictionRisk = true;
  if (needsConfirm(t.mode)) {
    const confirmDb = numberInput(t.confirm);
    if (confirmDb !== undefined) o.confirmDb = confirmDb;
  }
  return o;
}

/** Inputs an error can point at, named as the contract's dotted paths. */
export const CONTROLS = [
  'fileId',
  'format',
  'mapping.key',
  'mapping.type',
  'mapping.value',
  'mapping.fields',
  'mapping.member',
  'mapping.score',
  'mapping.ttl',
  'mode',
  'targetDb',
  'stagingDb',
  'maxErrors',
  'waitReplicas',
  'confirmDb',
  'allowEmpty',
  'allowEvictionRisk',
  'allowLiveWrites',
] as const;
export type Control = (typeof CONTROLS)[number];

/**
 * The input an error's `field` belongs to: `mapping.fields.3` is the Fields
 * input, a whole-mapping complaint goes to the key template (where a mapping
 * starts). Anything else (profileId, rows) has no input here: undefined.
 */
export function controlOf(field: string | undefined): Control | undefined {
  if (field === undefined || field === '') return undefined;
  const parts = field.split('.');
  const name = parts[0] === 'mapping' ? (parts.length > 1 ? `mapping.${parts[1]}` : 'mapping.key') : (parts[0] ?? '');
  return (CONTROLS as readonly string[]).includes(name) ? (name as Control) : undefined;
}

/** Put `{col}` into the key template at the caret (replacing a selection). */
export function insertColumn(
  template: string,
  name: string,
  start: number | null | undefined,
  end: number | null | undefined,
): { text: string; caret: number } {
  const token = `{${name}}`;
  const from = Math.min(Math.max(0, start ?? template.length), template.length);
  const to = Math.min(Math.max(from, end ?? from), template.length);
  return { text: template.slice(0, from) + token + template.slice(to), caret: from + token.length };
}
