/**
 * Shared shapes of the bulk-load engine. Sources turn an input stream into
 * batches of ready-encoded RESP; the pipe writer sends them on a raw socket and
 * counts replies; the orchestrator (loadJob) wraps that in staging, verify and
 * swap. Everything streams: nothing is proportional to the input's size except
 * the distinct-key tracker.
 */

export type InputFormat = 'resp' | 'commands' | 'csv' | 'tsv' | 'ndjson' | 'keys-ndjson' | 'keys-csv';
export type RecordType = 'string' | 'hash' | 'set' | 'zset' | 'list';
export type LoadMode = 'swap' | 'flush' | 'merge';

/** How tabular records become commands: the contract's type, so the two cannot drift. */
import type { Mapping } from '../../../app/schemas/bulk';
import type { CommandBatch, KeyTracker } from '../resp/types';

export type { Mapping };

/** Where a command came from, for error messages: `file:line` (1-based). */
export interface InputPosition {
  file: string;
  line: number;
  column?: number;
}

/**
 * Malformed input: stops the load. `message` says what was expected, e.g.
 * "expected '$' followed by a length, got 'x'". Thrown by sources.
 */
export class InputError extends Error {
  readonly position: InputPosition;
  constructor(position: InputPosition, message: string) {
    const where = `${position.file}:${position.line}${position.column !== undefined ? `:${position.column}` : ''}`;
    super(`${where}: ${message}`);
    this.name = 'InputError';
    this.position = position;
  }
}

export interface SourceOptions {
  /** Label for positions in errors (the file's name as the user knows it). */
  file: string;
  format: InputFormat;
  mapping?: Mapping;
  tracker?: KeyTracker;
  /** Soft target for one batch's RESP size; sources cut batches near it. */
  batchBytes?: number;
  /**
   * String rows without a ttl as MSETs of up to this many pairs (see
   * MsetRun); absent or 0: one SET per row. A load on one server sets it;
   * a cluster load (MSET must keep to one slot) and a preview do not.
   */
  msetPairs?: number;
}

/** An input, streamed: never read whole into memory. */
export interface CommandSource {
  /** Total input bytes when known (a file), for progress. */
  readonly totalBytes: number | undefined;
  batches(signal?: AbortSignal): AsyncIterable<CommandBatch>;
}
