import type { TrialEvent } from '../../../app/schemas/trials';
import { JobManager } from '../jobs/jobManager';

export type FinalTrialEvent = Extract<TrialEvent, { kind: 'done' | 'cancelled' | 'failed' }>;

export function isFinalTrialEvent(e: TrialEvent): e is FinalTrialEvent {
  return e.kind === 'done' || e.kind === 'cancelled' || e.kind === 'failed';
}

/**
 * Running and recent trials. A late subscriber gets `started`, every finished
 * variant and sweep point in order, the latest progress and the final event.
 */
export class TrialJobs extends JobManager<TrialEvent, FinalTrialEvent> {
  constructor() {
    super({
      prefix: 'trial',
      noun: 'trial',
      latestSlot: (e) => (e.kind === 'progress' ? e.kind : undefined),
      isFinal: isFinalTrialEvent,
      finish: (e) => e,
      crashed: (message) => ({ kind: 'failed', error: { code: 'INTERNAL', message: `the trial crashed: ${message}` } }),
    });
  }
}
