import type { StreamEvent } from '../../../../app/contract';
import { JobManager } from '../../jobs/jobManager';
import { outcomeJob, type Outcome } from '../../jobs/outcome';

type ActionEvent = StreamEvent<'keys.actions.progress'>;
export type FinalActionEvent = Outcome<ActionEvent>;

/** Running and recent bulk key actions (and dry runs). A late subscriber gets the latest progress and the report. */
export class KeyActionJobs extends JobManager<ActionEvent, FinalActionEvent> {
  constructor() {
    super(outcomeJob({ prefix: 'keyact', noun: 'bulk key action', latest: ['progress'], crashed: 'bulk key action crashed' }));
  }
}
