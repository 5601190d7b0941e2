import { HISTORY_LINES } from '../../../../app/schemas/console';
import type { ConsoleHistory } from '../history';

/** Lines a run hands over wait this long, so the reply goes out before the history file is written. */
const DELAY_MS = 100;

/**
 * The console history, written after the reply rather than before it: each add of
 * ConsoleHistory rewrites its file and fsyncs it twice (file, folder), milliseconds on a real
 * disk that a GET's round trip should not carry. Lines wait here, in order, at most
 * HISTORY_LINES of them (the oldest dropped, as the file would), and are written on a short
 * timer; list() and flush() write what waits first, so nothing read is ever behind.
 */
export class HistoryQueue {
  private pending: Array<{ user: string; profileId: string; line: string }> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly history: Pick<ConsoleHistory, 'add' | 'list'>,
    private readonly delayMs = DELAY_MS,
  ) {}

  add(user: string, profileId: string, line: string): void {
    this.pending.push({ user, profileId, line });
    if (this.pending.length > HISTORY_LINES) this.pending.shift();
    this.timer ??= setTimeout(() => this.flush(), this.delayMs);
    this.timer.unref();
  }

  list(user: string, profileId: string): string[] {
    this.flush();
    return this.history.list(user, profileId);
  }

  /** Write every waiting line now; one that cannot be written is reported and dropped, never retried. */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = [];
    for (const { user, profileId, line } of batch) {
      try {
        this.history.add(user, profileId, line);
      } catch (err) {
        // The command ran (or failed) already: a history that cannot be written must not hide its result.
        console.warn(`console history not written: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
  }
}
