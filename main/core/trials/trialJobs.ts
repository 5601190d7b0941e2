import type { TrialEvent } from '../../../app/schemas/trials';
import { JobManager } from '../jobs/jobManager';
import { outcomeJob, type Outcome } from '../jobs/outcome';

export type FinalTrialEvent = Outcome<TrialEvent>;

/**
 * Running and recent trials. A late subscriber gets `started`, every finished
 * variant and sweep point in order, the latest progress and the final event.
 */
export class TrialJobs extends JobManager<TrialEvent, FinalTrialEvent> {
  constructor() {
    super(outcomeJob({ prefix: 'trial', noun: 'trial', latest: ['progress'], crashed: 'the trial crashed' }));
  }
}
