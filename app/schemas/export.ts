import * as z from 'zod';
import { call, stream } from '../define';
import { Db, jobIdOf, ProfileId } from './common';
import { KeyBytes, PatternBytes } from './keys';

/*
 * The export domain: write the keys of a folder, a selection or a glob to a file people and
 * other tools can read (ndjson, csv) or that Redis restores exactly (restore: RESTORE commands).
 * A run is a job; on the web build its bytes stream to the browser through GET /api/exports/<jobId>
 * (the session's cookie, the job's owner), on the desktop into the file its save dialog chose; its
 * progress through export.progress.
 *
 * Sections: what is exported; the run; progress; the entries.
 */

// ---------------------------------------------------------------- what is exported

/** Most keys a selection names: a page's checked rows, not a keyspace (a glob is for that). */
export const MAX_EXPORT_SELECTION = 10_000;

export const ExportSource = z.discriminatedUnion('kind', [
  /** Every key under a folder: its exact prefix bytes (the glob is made from them, escaped). */
  z.object({ kind: z.literal('prefix'), prefix: KeyBytes }).strict(),
  /** Every key a glob matches (SCAN MATCH syntax), as a bulk action's match. */
  z.object({ kind: z.literal('pattern'), match: PatternBytes }).strict(),
  /** These keys. */
  z
    .object({
      kind: z.literal('keys'),
      keys: z.array(KeyBytes).min(1, 'keys must name at least one key').max(MAX_EXPORT_SELECTION, `keys must name at most ${MAX_EXPORT_SELECTION} keys`),
    })
    .strict(),
]);
export type ExportSource = z.output<typeof ExportSource>;

/**
 * restore: RESP `RESTORE key ttl payload REPLACE` (DUMP's exact bytes; what `cacheboard load`
 * and `redis-cli --pipe` take); ndjson and csv: readable, and loaded back by the bulk load
 * (formats keys-ndjson and keys-csv), docs/export.md.
 */
export const ExportFormat = z.enum(['ndjson', 'csv', 'restore']);
export type ExportFormat = z.output<typeof ExportFormat>;

export const ExportStart = z
  .object({
    profileId: ProfileId,
    db: Db.optional(),
    source: ExportSource,
    format: ExportFormat,
    /** Write each key's remaining TTL (off: every key loads back without one). */
    ttls: z.boolean().default(true),
    /** How many keys the page expects (a folder's count), for "keys done of N"; absent: unknown. */
    expected: z.number().int().min(0).optional(),
  })
  .strict();
export type ExportStart = z.output<typeof ExportStart>;

// ---------------------------------------------------------------- progress

export const ExportCounts = z.object({
  /** Keys written. */
  keys: z.number(),
  /** Keys expected (a selection's size, the folder's count the page passed); null: unknown. */
  total: z.number().nullable(),
  /** Bytes written so far. */
  bytes: z.number(),
  /** Keys gone between the scan and the read (deleted, expired). */
  vanished: z.number(),
  /** Keys of a type the format cannot hold (a module type; any non-string in restore is fine). */
  unsupported: z.number(),
});
export type ExportCounts = z.output<typeof ExportCounts>;

const Failure = z.object({ code: z.string(), message: z.string() });

export const ExportEvent = z.discriminatedUnion('kind', [
  /** The file's name and type, known at start; the download waits for the browser. */
  z.object({ kind: z.literal('started'), fileName: z.string(), contentType: z.string() }),
  z.object({ kind: z.literal('progress'), counts: ExportCounts }),
  z.object({ kind: z.literal('done'), counts: ExportCounts }),
  z.object({ kind: z.literal('cancelled'), counts: ExportCounts }),
  z.object({ kind: z.literal('failed'), error: Failure, counts: ExportCounts.optional() }),
]);
export type ExportEvent = z.output<typeof ExportEvent>;

export const ExportJobId = jobIdOf('export');

// ---------------------------------------------------------------- the entries

export const exportKeys = {
  'export.start': call({
    input: ExportStart,
    output: z.object({
      jobId: z.string(),
      fileName: z.string(),
      /** Web build: where the browser fetches the bytes (GET, the session's cookie). */
      download: z.string().optional(),
      /** Desktop: the file the save dialog chose, whole once the job is done. */
      savedTo: z.string().optional(),
    }),
    // Values are what an analyst may read anyway, on the analysts' own Redis user; restore is ops'
    // (the handler refuses it to analysts): DUMP payloads feed RESTORE, an ops act, as keys export does.
    role: 'analyst',
    summary:
      'Export a folder, a selection or a glob as ndjson, csv or restore; the file streams from GET download (web) as it is written, or into the file the desktop’s save dialog chose',
  }),
  'export.progress': stream({
    input: ExportJobId,
    event: ExportEvent,
    role: 'analyst',
    summary: 'Progress of an export: keys done of N, bytes, keys skipped; replayed to a late subscriber',
  }),
  'export.cancel': call({
    input: ExportJobId,
    output: z.object({ cancelled: z.boolean() }),
    role: 'analyst',
    summary: 'Stop an export; the download ends incomplete (the browser marks it failed)',
  }),
} as const;
