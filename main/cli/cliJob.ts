import { interruptible } from './interrupt';

type Final = { kind: 'done' | 'cancelled' } | { kind: 'failed'; error: { code: string; message: string } };

/**
 * A long command's run: Ctrl-C, SIGTERM or SIGHUP stops it (the note says what happens),
 * progress redraws one stderr line on a TTY (never with --json), and a failure is printed
 * (as `{"error":…}` too with --json). Resolves with the final event and the exit code (0 when
 * done, 128 + the signal's number when stopped), or null after a failure was printed.
 */
export async function runCliJob<E extends { kind: string }, F extends Final>(opts: {
  json: boolean;
  stopNote: string;
  progress: (e: E) => string | null;
  run: (emit: (e: E) => void, signal: AbortSignal) => Promise<F>;
}): Promise<{ end: Exclude<F, { kind: 'failed' }>; code: number } | null> {
  const tty = process.stderr.isTTY === true && !opts.json;
  const stop = interruptible(opts.json ? null : opts.stopNote);
  try {
    const end = await opts.run((e) => {
      const line = tty ? opts.progress(e) : null;
      if (line !== null) process.stderr.write(`\r${line}\x1b[K`);
    }, stop.signal);
    if (tty) process.stderr.write('\r\x1b[K');
    if (end.kind !== 'failed') return { end: end as Exclude<F, { kind: 'failed' }>, code: end.kind === 'cancelled' ? stop.cancelledCode() : 0 };
    const { error } = end as Extract<Final, { kind: 'failed' }>;
    process.stderr.write(`cacheboard: ${error.message}\n`);
    if (opts.json) process.stdout.write(`${JSON.stringify({ error })}\n`);
    return null;
  } finally {
    stop.dispose();
  }
}
