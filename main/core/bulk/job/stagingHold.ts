import { flushArgs } from './preflight';

/** What a load can say about the keys it wrote into staging: at most `keys` distinct ones, or (untrackedBy) nothing. */
export interface WrittenBound {
  /** Distinct keys read from the input so far: the pipe has sent at most these. */
  keys?: number;
  /** The input's first command that made the count unusable (DEL, RENAME…). */
  untrackedBy?: string;
}

/**
 * Why a failed load must leave its staging DB as it is rather than flush it,
 * or undefined when it holds nothing but keys this load wrote. A DB holding
 * more keys than the load wrote holds someone else's: an application that
 * uses that DB wrote into it during the load, and a flush would destroy its
 * data. The bound counts keys read, which may be more than were sent (a
 * stopped pipe's last batches), so it errs towards flushing only by the
 * load's own unsent keys, never by a key it knows nothing about.
 */
export function foreignReason(dataKeys: number, bound: WrittenBound): string | undefined {
  if (dataKeys === 0) return undefined;
  if (bound.keys === undefined) {
    const why =
      bound.untrackedBy === undefined ? 'the keys it wrote were not counted' : `the input uses ${bound.untrackedBy}, so the keys it wrote cannot be counted`;
    return `whether another client wrote into it cannot be told (${why})`;
  }
  if (dataKeys <= bound.keys) return undefined;
  return `it holds ${dataKeys - bound.keys} more keys than this load wrote (${bound.keys}): another client wrote into it during the load`;
}

/** The command a user runs, once they have looked, to empty a staging DB left as it was (credentials are theirs to add). */
export function cleanCommand(where: { host: string; port: number }, db: number, version: string): string {
  return `redis-cli -h ${where.host} -p ${where.port} -n ${db} FLUSHDB${flushArgs(version).length > 0 ? ' ASYNC' : ''}`;
}
