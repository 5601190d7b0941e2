import type { AudienceEvent, AudienceReport } from '../../../app/schemas/audience';
import { JobManager } from '../jobs/jobManager';
import { outcomeJob, type Outcome } from '../jobs/outcome';
import { AudienceHistory } from './audienceHistory';

export type FinalAudienceEvent = Outcome<AudienceEvent>;

/**
 * Running and recent audience trials. A late subscriber gets `started`, every strategy
 * result in order, the latest progress and the final event; finished reports are kept
 * (AudienceHistory), newest first, so runs can be compared.
 */
export class AudienceJobs extends JobManager<AudienceEvent, FinalAudienceEvent> {
  private readonly reports: AudienceHistory;

  /** `historyFile`: where finished reports are kept across restarts (in memory only without one). */
  constructor(historyFile?: string) {
    super(outcomeJob({ prefix: 'audience', noun: 'audience trial', latest: ['progress'], crashed: 'the audience trial crashed' }));
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
