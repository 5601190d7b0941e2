import type { LoadEvent, LoadReport } from '../../../app/schemas/bulk';
import { JobManager } from '../jobs/jobManager';

/**
 * Running and recent loads: every phase and warning, the latest progress and the
 * report are replayed to a late subscriber. One load per target (runningOn).
 */
export class BulkJobs extends JobManager<LoadEvent, LoadReport> {
  constructor() {
    super({
      prefix: 'load',
      noun: 'load',
      latestSlot: (e) => (e.kind === 'progress' ? 'progress' : undefined),
      isFinal: (e) => e.kind === 'report',
      finish: (report) => ({ kind: 'report', report }),
      // runLoad reports its own failures; this only catches a bug in it. A crash has no report
      // (nothing says what was written), so the failed phase is the last word (see JobKind.crashed).
      crashed: (message) => ({ kind: 'phase', phase: 'failed', message: `load crashed: ${message}`, at: Date.now() }),
    });
  }
}
