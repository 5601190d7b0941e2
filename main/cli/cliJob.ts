import { interruptible } from './interrupt';

type Final = { kind: 'done' | 'cancelled' } | { kind: 'failed'; error: { code: string; message: string } };
type Failure<F extends Final> = Extract<F, { kind: 'failed' }>['error'];
type Runner<E, R> = (emit: (e: E) => void, signal: AbortSignal) => Promise<R>;

/** What withCliJob hands the command while its stop signals are taken. */
export interface CliJob<E> {
  /** Runs the job: its events drawn on stderr, the progress line cleared when it returns. */
  run<R>(runner: Runner<E, R>): Promise<R>;
  /** The exit code of a job a signal stopped: 128 + that signal's number. */
  cancelledCode(): number;
}

/**
 * The part every long command shares: from `body`'s start to its end, Ctrl-C, SIGTERM or SIGHUP
 * stops the job (`stopNote`, when given, says what happens; a second signal leaves at once,
 * printing `leaving`). `progress` redraws one stderr line on a TTY (never with --json);
 * `lines` are printed for good (not with --json), the progress line cleared first.
 */
export async function withCliJob<E, T>(
  opts: { json: boolean; stopNote: string | null; leaving?: string; progress: (e: E) => string | null; lines?: (e: E) => string | null },
  body: (job: CliJob<E>) => Promise<T>,
): Promise<T> {
  const tty = process.stderr.isTTY === true && !opts.json;
  const stop = interruptible(opts.stopNote, opts.leaving);
  const emit = (e: E) => {
    const bar = tty ? opts.progress(e) : null;
    const line = bar === null && !opts.json ? (opts.lines?.(e) ?? null) : null;
    if (bar !== null) process.stderr.write(`\r${bar}\x1b[K`);
    else if (line !== null) process.stderr.write(`${tty ? '\r\x1b[K' : ''}${line}\n`);
  };
  try {
    return await body({
      run: async (runner) => {
        const end = await runner(emit, stop.signal);
        if (tty) process.stderr.write('\r\x1b[K');
        return end;
      },
      cancelledCode: () => stop.cancelledCode(),
    });
  } finally {
    stop.dispose();
  }
}

/** Prints a failure on stderr, and as `{"error":…}` on stdout with --json. */
export function printFailure(error: { code: string; message: string }, json: boolean): void {
  process.stderr.write(`cacheboard: ${error.message}\n`);
  if (json) process.stdout.write(`${JSON.stringify({ error })}\n`);
}

/**
 * A long command whose job ends done, cancelled or failed (withCliJob; the stop note is not
 * said with --json unless `noteWithJson`). A failure is printed (as `{"error":…}` too with
 * --json, or by `failed`). Resolves with the final event and the exit code (0 when done,
 * 128 + the signal's number when stopped), or null after a failure was printed.
 */
export async function runCliJob<E extends { kind: string }, F extends Final>(opts: {
  json: boolean;
  stopNote: string;
  /** Say the stop note on stderr with --json too (stdout still holds only the JSON). */
  noteWithJson?: boolean;
  /** A second stop signal leaves at once, printing this first (what the cleanup could not do). */
  leaving?: string;
  progress: (e: E) => string | null;
  run: Runner<E, F>;
  /** Prints a failure in the command's own terms instead of printFailure's. */
  failed?: (error: Failure<F>) => void;
}): Promise<{ end: Exclude<F, { kind: 'failed' }>; code: number } | null> {
  const stopNote = opts.json && opts.noteWithJson !== true ? null : opts.stopNote;
  const shared = { json: opts.json, stopNote, progress: opts.progress, ...(opts.leaving === undefined ? {} : { leaving: opts.leaving }) };
  return withCliJob(shared, async ({ run, cancelledCode }) => {
    const end = await run(opts.run);
    if (end.kind !== 'failed') return { end: end as Exclude<F, { kind: 'failed' }>, code: end.kind === 'cancelled' ? cancelledCode() : 0 };
    const { error } = end as Extract<F, { kind: 'failed' }>;
    if (opts.failed) opts.failed(error);
    else printFailure(error, opts.json);
    return null;
  });
}
