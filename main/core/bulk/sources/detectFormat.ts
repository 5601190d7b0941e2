import { AppError } from '../../../../app/errors';
import type { InputFormat } from '../types';

const BY_EXTENSION: Record<string, InputFormat> = {
  resp: 'resp',
  redis: 'resp',
  txt: 'commands',
  cmd: 'commands',
  commands: 'commands',
  'redis-cli': 'commands',
  csv: 'csv',
  tsv: 'tsv',
  tab: 'tsv',
  ndjson: 'ndjson',
  jsonl: 'ndjson',
};

/** Every format, for "choose one of …" messages. */
export const INPUT_FORMATS: readonly InputFormat[] = ['resp', 'commands', 'csv', 'tsv', 'ndjson', 'keys-ndjson', 'keys-csv'];

/**
 * The format a file's extension implies (case-insensitive), or undefined.
 * `.redis` is RESP (what redis-cli --pipe takes); `.txt`, `.cmd`, `.commands`
 * and `.redis-cli` are redis-cli command lines.
 */
export function detectFormat(fileName: string): InputFormat | undefined {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  // An export's own name (cacheboard-export-….keys.ndjson): key, type, ttl and value per line.
  const exported = /\.keys\.(ndjson|jsonl|csv)$/i.exec(base)?.[1]?.toLowerCase();
  if (exported !== undefined) return exported === 'csv' ? 'keys-csv' : 'keys-ndjson';
  return BY_EXTENSION[base.slice(dot + 1).toLowerCase()];
}

/** The message for a file whose format can't be told: names the file and the choices. */
export function unknownFormatMessage(fileName: string): string {
  const known = Object.keys(BY_EXTENSION)
    .map((e) => `.${e}`)
    .join(' ');
  return `Cannot tell the format of "${fileName}" from its extension (known: ${known}); choose one of ${INPUT_FORMATS.join(', ')}`;
}

/** The format asked for, else the one the extension implies; a VALIDATION error on `format` when neither says. */
export function formatOf(fileName: string, asked: InputFormat | undefined): InputFormat {
  const format = asked ?? detectFormat(fileName);
  if (format === undefined) throw new AppError('VALIDATION', unknownFormatMessage(fileName), 'format');
  return format;
}
