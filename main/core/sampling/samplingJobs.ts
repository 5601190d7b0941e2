import type { SamplingEvent } from '../../../app/schemas/sampling';
import { JobManager } from '../jobs/jobManager';

export type FinalSamplingEvent = Extract<SamplingEvent, { kind: 'done' | 'cancelled' | 'failed' }>;

export function isFinalSamplingEvent(e: SamplingEvent): e is FinalSamplingEvent {
  return e.kind === 'done' || e.kind === 'cancelled' || e.kind === 'failed';
}

/**
 * Running and recent samples and censuses. A late subscriber gets `started`, the
 * latest progress, the latest partial report and the final event.
 */
export class SamplingJobs extends JobManager<SamplingEvent, FinalSamplingEvent> {
  constructor() {
    super({
      prefix: 'sample',
      noun: 'sampling run',
      latestSlot: (e) => (e.kind === 'progress' || e.kind === 'partial' ? e.kind : undefined),
      isFinal: isFinalSamplingEvent,
      finish: (e) => e,
      crashed: (message) => ({ kind: 'failed', error: { code: 'INTERNAL', message: `sampling crashed: ${message}` } }),
    });
  }
}
