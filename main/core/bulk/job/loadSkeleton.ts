import type { LoadReport } from '../../../../app/schemas/bulk';
import type { Failure } from './loadFailure';
import type { LoadLog } from './loadLog';

/** What one kind of load (one server, a cluster) does at each step the skeleton runs. */
export interface LoadSteps {
  /** Preflight to the last step; throws whatever stops the load. */
  execute(): Promise<void>;
  /** What stopped the load, as the report will say it (see classifyFailure, nameOwnStop). */
  failure(err: unknown): Failure;
  /** The outcome and error, and whatever the failure leaves to undo (staging). Never throws. */
  recordFailure(f: Failure): Promise<void>;
  /** Saves back on, claims released, connections closed, whatever happened before. Never throws. */
  cleanup(): Promise<void>;
  /** The done phase's message, for a load that went through. */
  doneMessage(r: LoadReport): string;
}

/**
 * Every load's course: its steps, then on any failure the report of what the
 * data was left as, then a cleanup that always runs, then the report (also
 * emitted as the last event). Never throws for what the steps throw.
 */
export async function runLoadSkeleton(log: LoadLog, steps: LoadSteps): Promise<LoadReport> {
  let failure: Failure | undefined;
  try {
    await steps.execute();
  } catch (err) {
    failure = steps.failure(err);
  }
  log.phase('cleanup', failure === undefined ? 'Restoring settings, releasing connections' : 'Cleaning up after the failure');
  if (failure !== undefined) await steps.recordFailure(failure);
  await steps.cleanup();
  return log.finish((r) => steps.doneMessage(r));
}
