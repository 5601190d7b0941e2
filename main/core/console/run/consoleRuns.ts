import { AppError } from '../../../../app/errors';

/** Commands one user may have running at once (each blocking one holds a connection of its own). */
export const RUNS_PER_USER = 16;

/** How a run ended early: the user's cancel, its timeout, or the page going away. */
export type StopReason = 'cancelled' | 'timeout';

/** One running command: its abort, and why it was aborted. */
export interface RunControl {
  signal: AbortSignal;
  /** Undefined while it runs on. */
  readonly stopped: StopReason | undefined;
  /** The error to end the run with, in words: what was stopped and that its connection was closed. */
  stopError(command: string): AppError;
  done(): void;
}

/**
 * The commands running now, by user, console and run id, so console.cancel can name one.
 * A run is aborted by its cancel, its timeout or its caller's signal (the page went away);
 * aborting makes its reads reject, and the run destroys the connections they were on.
 */
export class ConsoleRuns {
  private readonly running = new Map<string, AbortController & { reason?: StopReason }>();

  start(user: string, consoleId: string, runId: string, timeoutMs: number, caller: AbortSignal): RunControl {
    const key = `${user}\0${consoleId}\0${runId}`;
    if (this.running.has(key)) throw new AppError('CONFLICT', `Run ${runId} is running already: give each run its own id`, 'runId');
    const mine = [...this.running.keys()].filter((k) => k.startsWith(`${user}\0`)).length;
    if (mine >= RUNS_PER_USER) {
      throw new AppError('RATE_LIMITED', `${mine} of your console commands are running: wait for one to end, or cancel one, before the next`);
    }
    const ac: AbortController & { reason?: StopReason } = new AbortController();
    this.running.set(key, ac);
    const stop = (reason: StopReason): void => {
      if (ac.signal.aborted) return;
      ac.reason = reason;
      ac.abort();
    };
    const timer = setTimeout(() => stop('timeout'), timeoutMs);
    const onCaller = (): void => stop('cancelled');
    caller.addEventListener('abort', onCaller, { once: true });
    return {
      signal: ac.signal,
      get stopped() {
        return ac.reason;
      },
      stopError: (command) =>
        ac.reason === 'timeout'
          ? new AppError('TIMEOUT', `${command} had no reply within ${timeoutMs} ms: it was stopped and its connection closed`)
          : new AppError('CANCELLED', `${command} was cancelled: its connection was closed`),
      done: () => {
        clearTimeout(timer);
        caller.removeEventListener('abort', onCaller);
        if (this.running.get(key) === ac) this.running.delete(key);
      },
    };
  }

  /** Cancel the user's run; false when it is not running (finished already, or never started). */
  cancel(user: string, consoleId: string, runId: string): boolean {
    const ac = this.running.get(`${user}\0${consoleId}\0${runId}`);
    if (ac === undefined || ac.signal.aborted) return false;
    ac.reason = 'cancelled';
    ac.abort();
    return true;
  }
}
