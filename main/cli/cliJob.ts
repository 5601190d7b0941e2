import { interruptible } from './interrupt';

type Final = { kind: 'done' | 'cancelled' } | { kind: 'failed'; error: { code: string; message: string } };
type Failure<F extends Final> = Extract<F, { kind: 'failed' }>['error'];

/** Prints a failure on stderr, and as `{"error":…}` on stdout with --json. */
function printFailure(error: { code: string; message: string }, json: boolean): void {
  process.stderr.write(`cacheboard: ${error.message}\n`);
  if (json) process.stdout.write(`${JSON.stringify({ error })}\n`);
}

/**
 * A long command's run: Ctrl-C, SIGTERM or SIGHUP stops it (the note says what happens),
 * progress redraws one stderr line on a TTY (never with --json), and a failure is printed
 * (as `{"error":…}` too with --json, or by `failed`). Resolves with the final event and the exit
 * code (0 when done, 128 + the signal's number when stopped), or null after a failure was printed.
 */
export async function runCliJob<E extends { kind: string }, F extends Final>(opts: {
  json: boolean;
  stopNote: string;
  /** Say the stop note on stderr with --json too (stdout still holds only the JSON). */
  noteWithJson?: boolean;
  /** A second stop signal leaves at once, printing this first (what the cleanup could not do). */
  leaving?: string;
  progress: (e: E) => string | null;
  run: (emit: (e: E) => void, signal: AbortSignal) => Promise<F>;
  /** Prints a failure in the command's own terms instead of printFailure's. */
  failed?: (error: Failure<F>) => void;
}): Promise<{ end: Exclude<F, { kind: 'failed' }>; code: number } | null> {
  const tty = process.stderr.isTTY === true && !opts.json;
  const stop = interruptible(opts.json && opts.noteWithJson !== true ? null : opts.stopNote, opts.leaving);
  try {
    const end = await opts.run((e) => {
      const line = tty ? opts.progress(e) : null;
      if (line !== null) process.stderr.write(`\r${line}\x1b[K`);
    }, stop.signal);
    if (tty) process.stderr.write('\r\x1b[K');
    if (end.kind !== 'failed') return { end: end as Exclude<F, { kind: 'failed' }>, code: end.kind === 'cancelled' ? stop.cancelledCode() : 0 };
    const { error } = end as Extract<F, { kind: 'failed' }>;
    if (opts.failed) opts.failed(error);
    else printFailure(error, opts.json);
    return null;
  } finally {
    stop.dispose();
  }
}
