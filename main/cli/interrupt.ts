import { constants } from 'node:os';

/**
 * The signals that mean "stop" to a long command: Ctrl-C; `kill`, systemd's and a container's
 * stop (SIGTERM); and the terminal going away (SIGHUP, e.g. an ssh session dropped).
 */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

/** The exit code a shell shows for a process that signal ended: 128 + its number (130, 143, 129). */
export function signalExitCode(signal: StopSignal): number {
  return 128 + constants.signals[signal];
}

/**
 * A hung-up terminal answers writes with EIO; an unhandled 'error' on stderr would end the
 * process before the cleanup it is doing. What we print there goes nowhere from now on.
 */
export function ignoreLostTerminal(): void {
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
}

/**
 * Calls `first` on the first stop signal and `again` on a later one. A repeated SIGHUP is not
 * "again": when a terminal closes, the shell forwards SIGHUP to its jobs and the kernel sends
 * one more to the foreground group as the shell exits; nobody asked twice.
 */
export function onStopSignals(first: (s: StopSignal) => void, again: (s: StopSignal) => void): () => void {
  let got: StopSignal | null = null;
  const handlers = STOP_SIGNALS.map((s) => {
    const handler = () => {
      if (got === null) {
        got = s;
        if (s === 'SIGHUP') ignoreLostTerminal();
        first(s);
      } else if (s !== 'SIGHUP') {
        again(s);
      }
    };
    process.on(s, handler);
    return [s, handler] as const;
  });
  return () => {
    for (const [s, handler] of handlers) process.off(s, handler);
  };
}

export interface Interrupt {
  /** Aborted by the first stop signal. */
  readonly signal: AbortSignal;
  /** The exit code of a job a signal stopped: 128 + that signal's number (130 when none came). */
  cancelledCode(): number;
  dispose(): void;
}

/**
 * A stop signal as the long commands take it: the first asks the job to stop, clean up and
 * report what it finished (the note says so on stderr); a second one leaves at once with
 * 128 + its number, printing `leaving` first when given (what the cleanup could not do).
 */
export function interruptible(note: string | null, leaving?: string): Interrupt {
  const abort = new AbortController();
  let code = signalExitCode('SIGINT');
  const dispose = onStopSignals(
    (s) => {
      code = signalExitCode(s);
      if (note !== null) {
        const again = s === 'SIGINT' ? 'Ctrl-C again to quit now' : 'Ctrl-C or SIGTERM again to quit now';
        process.stderr.write(`\n${s === 'SIGINT' ? '' : `${s}: `}${note} (${again})\n`);
      }
      abort.abort();
    },
    (s) => {
      if (leaving !== undefined) process.stderr.write(`\n${leaving}\n`);
      process.exit(signalExitCode(s));
    },
  );
  return { signal: abort.signal, cancelledCode: () => code, dispose };
}
