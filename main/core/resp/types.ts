/**
 * What the pipe writer (pipeLoad) takes and gives back: batches of
 * ready-encoded RESP from any source (a bulk load's file, the audience demo's
 * generator), and the counts of what was sent and answered. Also the
 * KeyTracker a writer of batches reports its keys to (DistinctKeyTracker).
 */

/** A batch of commands, already RESP-encoded, in input order. */
export interface CommandBatch {
  /** RESP bytes of exactly `count` commands. */
  resp: Buffer;
  count: number;
  /** 1-based input line where each command starts (length >= count). */
  lines: Uint32Array;
  /**
   * The last input line of each command, when some command carries several
   * rows (an MSET of many string rows): an error names the whole span.
   */
  lastLines?: Uint32Array;
  /** Input records consumed so far (rows, objects or command lines), cumulative. */
  records: number;
  /** Input bytes consumed so far, cumulative (for progress and ETA). */
  bytesRead: number;
  /**
   * Called by the pipe once every command of the batch is answered: the socket
   * is then done with `resp`, and the source may reuse its memory.
   */
  release?(): void;
}

/** One error reply, mapped back to its input. */
export interface LoadErrorEntry {
  position: string; // "file:line", or "file:first-last" for a command carrying several rows
  message: string; // Redis's text
}

export interface PipeProgress {
  records: number;
  commands: number; // sent
  replies: number; // received
  errors: number;
  bytesRead: number;
}

export interface PipeResult extends PipeProgress {
  /** The first 100 error replies. */
  firstErrors: LoadErrorEntry[];
  seconds: number;
}

/**
 * Counts the distinct keys a load writes, for the swap-mode check
 * "DBSIZE of staging == distinct keys written". Sources report every key they
 * write; a command whose key effect can't be tracked (DEL, RENAME, FLUSHDB…)
 * makes the count unusable, and the check is then reported as skipped.
 */
export interface KeyTracker {
  add(buf: Buffer, start: number, end: number): void;
  untrackable(command: string): void;
}
