import type { SamplingEvent } from '../../../app/schemas/sampling';
import { JobManager } from '../jobs/jobManager';
import { outcomeJob, type Outcome } from '../jobs/outcome';

export type FinalSamplingEvent = Outcome<SamplingEvent>;

/**
 * Running and recent samples and censuses. A late subscriber gets `started`, the
 * latest progress, the latest partial report and the final event.
 */
export class SamplingJobs extends JobManager<SamplingEvent, FinalSamplingEvent> {
  constructor() {
    super(outcomeJob({ prefix: 'sample', noun: 'sampling run', latest: ['progress', 'partial'], crashed: 'sampling crashed' }));
  }
}
