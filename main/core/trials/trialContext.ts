import { AppError } from '../../../app/errors';
import type { ErrorContext } from '../pool/redisErrors';
import type { TrialConnector } from './connector';
import type { TrialProgress } from './trialProgress';
import type { TrialRecorder } from './trialRecorder';

/** What a trial's body gets from the run around it. */
export interface TrialContext {
  /** Every key the trial writes starts with it: `cacheboard:trial:<run>:`. */
  readonly prefix: string;
  /** CLIENT SETNAME of the trial's own sockets. */
  readonly name: string;
  readonly connector: TrialConnector;
  /** The real server (not the proxy), so errors name it and never echo the password. */
  readonly errorContext: ErrorContext;
  readonly signal: AbortSignal;
  readonly progress: TrialProgress;
  readonly recorder: TrialRecorder;
  /** Remove the scratch keys in `db` (between variants, so each starts empty); resolves with how many. */
  clean(db: number): Promise<number>;
  /** How many scratch keys `db` holds now. */
  count(db: number): Promise<number>;
}

/** Thrown at a checkpoint once the run is cancelled; the run turns it into a `cancelled` report. */
export class TrialCancelled extends AppError {
  constructor() {
    super('CANCELLED', 'The trial was cancelled.');
  }
}

/** Between two round trips: stop here if the run was cancelled. */
export function checkpoint(signal: AbortSignal): void {
  if (signal.aborted) throw new TrialCancelled();
}

/** Runs one timed step (a variant, a sweep point) and returns its wall time in seconds; progress counts from its start. */
export async function timed(ctx: TrialContext, step: string, body: (tick: (n: number) => void) => Promise<void>): Promise<number> {
  ctx.progress.begin(step);
  const t0 = performance.now();
  await body((n) => ctx.progress.add(n));
  const seconds = (performance.now() - t0) / 1000;
  checkpoint(ctx.signal);
  return seconds;
}
