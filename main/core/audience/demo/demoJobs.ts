import type { DemoEvent } from '../../../../app/schemas/audience';
import { JobManager } from '../../jobs/jobManager';
import { outcomeJob, type Outcome } from '../../jobs/outcome';

export type FinalDemoEvent = Outcome<DemoEvent>;

/** Running and recent demo-data loads (one per target at a time, checked by the caller). */
export class DemoJobs extends JobManager<DemoEvent, FinalDemoEvent> {
  constructor() {
    super(outcomeJob({ prefix: 'demo', noun: 'demo-data load', latest: ['progress'], crashed: 'the demo-data load crashed' }));
  }
}
