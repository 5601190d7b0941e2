import type { StreamEvent } from '../../../app/contract';
import { JobManager } from '../jobs/jobManager';
import { outcomeJob, type Outcome } from '../jobs/outcome';

type IndexEvent = StreamEvent<'keys.index.progress'>;
export type FinalIndexEvent = Outcome<IndexEvent>;

/**
 * Running and recent builds of the name index (the namespace tree). A late subscriber gets the
 * latest progress and the final event.
 */
export class KeysIndexJobs extends JobManager<IndexEvent, FinalIndexEvent> {
  constructor() {
    super(outcomeJob({ prefix: 'keys', noun: 'key index build', latest: ['progress'], crashed: 'key index build crashed' }));
  }
}
