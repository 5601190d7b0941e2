import type { DemoEvent } from '../../../../app/schemas/audience';
import { JobManager } from '../../jobs/jobManager';

export type FinalDemoEvent = Extract<DemoEvent, { kind: 'done' | 'cancelled' | 'failed' }>;

export function isFinalDemoEvent(e: DemoEvent): e is FinalDemoEvent {
  return e.kind === 'done' || e.kind === 'cancelled' || e.kind === 'failed';
}

/** Running and recent demo-data loads (one per target at a time, checked by the caller). */
export class DemoJobs extends JobManager<DemoEvent, FinalDemoEvent> {
  constructor() {
    super({
      prefix: 'demo',
      noun: 'demo-data load',
      latestSlot: (e) => (e.kind === 'progress' ? e.kind : undefined),
      isFinal: isFinalDemoEvent,
      finish: (e) => e,
      crashed: (message) => ({ kind: 'failed', error: { code: 'INTERNAL', message: `the demo-data load crashed: ${message}` } }),
    });
  }
}
