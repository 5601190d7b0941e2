import { AppError } from '../../../app/errors';
import type { LoadOptions, Mapping } from '../../../app/schemas/bulk';
import type { InputFile } from './inputFile';
import { formatOf } from './sources/openSource';
import type { InputFormat, LoadMode } from './types';

/** The input file (opened with its folder's rules, see inputFile.ts) and the load's settled options. */
export interface PreparedLoad extends InputFile {
  fileLabel: string;
  format: InputFormat;
  mapping?: Mapping;
  mode: LoadMode;
  targetDb: number;
  stagingDb?: number;
  force: boolean;
  maxErrors: number;
  bgsave: boolean;
  waitReplicas?: number;
  /** See LoadOptions: the guards against replacing live data with nothing, or with much less. */
  allowEmpty: boolean;
  maxShrink: number;
  /** See LoadOptions: start although the estimate does not fit under an evicting maxmemory-policy. */
  allowEvictionRisk: boolean;
  /** See LoadOptions: swap even though other clients wrote to the live DB during the load. */
  allowLiveWrites: boolean;
}

export type PrepareInput = Omit<LoadOptions, 'profileId' | 'fileId' | 'targetDb'> &
  InputFile & {
    fileLabel: string;
    targetDb: number;
    /** The UI makes the user type the DB number for swap/flush; the CLI's flags are the confirmation. */
    requireConfirm: boolean;
  };

const TABULAR = new Set<InputFormat>(['csv', 'tsv', 'ndjson']);

/** Checks that need no server: format, mapping, confirmation. Used by the API and the CLI alike. */
export function prepareLoad(o: PrepareInput): PreparedLoad {
  const format = formatOf(o.fileLabel, o.format);
  if (TABULAR.has(format) && o.mapping === undefined) {
    throw new AppError('VALIDATION', `${format} input needs a key template, e.g. user:{id}`, 'mapping.key');
  }
  if (!TABULAR.has(format) && o.mapping !== undefined) {
    throw new AppError('VALIDATION', `${format} input is already commands; a mapping applies only to csv, tsv and ndjson`, 'mapping');
  }
  if (o.requireConfirm && o.mode !== 'merge' && o.confirmDb !== o.targetDb) {
    throw new AppError('VALIDATION', `${o.mode} replaces the contents of DB ${o.targetDb}: type ${o.targetDb} to confirm`, 'confirmDb');
  }
  if (o.stagingDb !== undefined && o.stagingDb === o.targetDb) {
    throw new AppError('VALIDATION', 'The staging DB must differ from the target DB', 'stagingDb');
  }
  const out: PreparedLoad = {
    path: o.path,
    fileLabel: o.fileLabel,
    format,
    mode: o.mode,
    targetDb: o.targetDb,
    force: o.force,
    maxErrors: o.maxErrors,
    bgsave: o.bgsave,
    allowEmpty: o.allowEmpty,
    maxShrink: o.maxShrink,
    allowEvictionRisk: o.allowEvictionRisk,
    allowLiveWrites: o.allowLiveWrites,
  };
  if (o.folder !== undefined) out.folder = o.folder;
  if (o.mapping !== undefined) out.mapping = o.mapping;
  if (o.stagingDb !== undefined) out.stagingDb = o.stagingDb;
  if (o.waitReplicas !== undefined) out.waitReplicas = o.waitReplicas;
  return out;
}
