import type { TrialEvent } from '../../../app/schemas/trials';

/** At most ten progress events a second, whatever the command rate. */
export const PROGRESS_EVERY_MS = 100;

/**
 * Counts commands as a trial sends them (a million a second when pipelined) and
 * turns them into progress events no more often than every PROGRESS_EVERY_MS.
 */
export class TrialProgress {
  private readonly startedAt = performance.now();
  private lastEmit = -Infinity;
  private done = 0;
  private step = '';
  private stepStart = 0;
  private stepDone = 0;

  constructor(
    private readonly emit: (e: TrialEvent) => void,
    private readonly total: number,
    private readonly everyMs = PROGRESS_EVERY_MS,
  ) {}

  /** A new step (a variant, a sweep point) starts; its rate is counted from now. */
  begin(step: string): void {
    this.step = step;
    this.stepStart = performance.now();
    this.stepDone = 0;
  }

  add(n: number): void {
    this.done += n;
    this.stepDone += n;
    const now = performance.now();
    if (now - this.lastEmit >= this.everyMs) this.send(now);
  }

  /** The last word, so a bar ends where the run did (one event, whatever the throttle says). */
  finish(): void {
    this.send(performance.now());
  }

  private send(now: number): void {
    this.lastEmit = now;
    const stepMs = now - this.stepStart;
    this.emit({
      kind: 'progress',
      step: this.step,
      done: this.done,
      total: this.total,
      opsPerSec: stepMs > 0 ? Math.round((this.stepDone * 1000) / stepMs) : 0,
      elapsedMs: Math.round(now - this.startedAt),
    });
  }
}
