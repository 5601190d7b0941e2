import type { SamplingEvent, SamplingReport } from '../../../app/schemas/sampling';
import type { SamplingTuning } from './tuning';

/**
 * Turns "a group of keys was probed" (thousands of times a second) into at
 * most one progress event every progressEveryMs and one partial report every
 * partialEveryMs, so a UI and the stream's queue keep up whatever the speed.
 */
export class SamplingThrottle {
  private readonly startedAt = Date.now();
  private lastProgress = this.startedAt;
  private lastPartial = this.startedAt;

  constructor(
    private readonly tuning: Pick<SamplingTuning, 'progressEveryMs' | 'partialEveryMs'>,
    private readonly emit: (e: SamplingEvent) => void,
    private readonly examined: () => number,
    private readonly target: number,
    private readonly report: () => SamplingReport,
  ) {}

  tick(): void {
    const now = Date.now();
    if (now - this.lastProgress >= this.tuning.progressEveryMs) this.progress(now);
    if (now - this.lastPartial >= this.tuning.partialEveryMs) {
      this.lastPartial = now;
      this.emit({ kind: 'partial', report: this.report() });
    }
  }

  /** The last progress, so a bar ends where the run did. */
  finish(): void {
    this.progress(Date.now());
  }

  private progress(now: number): void {
    this.lastProgress = now;
    const examined = this.examined();
    const elapsedMs = now - this.startedAt;
    this.emit({
      kind: 'progress',
      examined,
      target: this.target,
      keysPerSec: elapsedMs > 0 ? Math.round((examined * 1000) / elapsedMs) : 0,
      elapsedMs,
    });
  }
}
