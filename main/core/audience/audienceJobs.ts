import type { AudienceEvent, AudienceReport } from '../../../app/schemas/audience';
import { JobManager } from '../jobs/jobManager';

export type FinalAudienceEvent = Extract<AudienceEvent, { kind: 'done' | 'cancelled' | 'failed' }>;

export function isFinalAudienceEvent(e: AudienceEvent): e is FinalAudienceEvent {
  return e.kind === 'done' || e.kind === 'cancelled' || e.kind === 'failed';
}

/** Reports kept for comparing runs (this process's lifetime). */
const KEPT_REPORTS = 50;

/**
 * Running and recent audience trials. A late subscriber gets `started`, every strategy
 * result in order, the latest progress and the final event; finished reports are kept,
 * newest first, so runs can be compared.
 */
export class AudienceJobs extends JobManager<AudienceEvent, FinalAudienceEvent> {
  private readonly reports: AudienceReport[] = [];

  constructor() {
    super({
      prefix: 'audience',
      noun: 'audience trial',
      latestSlot: (e) => (e.kind === 'progress' ? e.kind : undefined),
      isFinal: isFinalAudienceEvent,
      finish: (e) => e,
      crashed: (message) => ({ kind: 'failed', error: { code: 'INTERNAL', message: `the audience trial crashed: ${message}` } }),
    });
  }

  /** Keeps a finished report (done or cancelled) for history(). */
  remember(e: FinalAudienceEvent): FinalAudienceEvent {
    if (e.kind !== 'failed') {
      this.reports.unshift(e.report);
      this.reports.length = Math.min(this.reports.length, KEPT_REPORTS);
    }
    return e;
  }

  history(profileId?: string): AudienceReport[] {
    return this.reports.filter((r) => profileId === undefined || r.profileId === profileId);
  }
}
