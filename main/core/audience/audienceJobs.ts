import type { AudienceEvent, AudienceReport } from '../../../app/schemas/audience';
import { JobManager } from '../jobs/jobManager';
import { AudienceHistory } from './audienceHistory';

export type FinalAudienceEvent = Extract<AudienceEvent, { kind: 'done' | 'cancelled' | 'failed' }>;

export function isFinalAudienceEvent(e: AudienceEvent): e is FinalAudienceEvent {
  return e.kind === 'done' || e.kind === 'cancelled' || e.kind === 'failed';
}

/**
 * Running and recent audience trials. A late subscriber gets `started`, every strategy
 * result in order, the latest progress and the final event; finished reports are kept
 * (AudienceHistory), newest first, so runs can be compared.
 */
export class AudienceJobs extends JobManager<AudienceEvent, FinalAudienceEvent> {
  private readonly reports: AudienceHistory;

  /** `historyFile`: where finished reports are kept across restarts (in memory only without one). */
  constructor(historyFile?: string) {
    super({
      prefix: 'audience',
      noun: 'audience trial',
      latestSlot: (e) => (e.kind === 'progress' ? e.kind : undefined),
      isFinal: isFinalAudienceEvent,
      finish: (e) => e,
      crashed: (message) => ({ kind: 'failed', error: { code: 'INTERNAL', message: `the audience trial crashed: ${message}` } }),
    });
    this.reports = new AudienceHistory(historyFile);
  }

  /** Keeps a finished report (done or cancelled) for history(). */
  remember(e: FinalAudienceEvent): FinalAudienceEvent {
    if (e.kind !== 'failed') this.reports.add(e.report);
    return e;
  }

  history(profileId?: string): AudienceReport[] {
    return this.reports.list(profileId);
  }
}
