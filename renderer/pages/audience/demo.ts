import type { AudienceTarget } from './form';
import type { CallInput } from '../../../app/contract';
import type { DemoEvent } from '../../../app/schemas/audience';
import { numberInput } from '../../lib/formInput';
import { EMPTY_JOB, jobFold, shareDone, type JobView } from '../../lib/jobView';

/** The demo dataset's size as typed; small by default so a click takes seconds, not minutes. */
export interface DemoForm {
  users: string;
  days: string;
  seed: string;
  /** Write into a DB that already holds keys (demo keys are replaced, others left alone). */
  overwrite: boolean;
}

export const DEFAULT_DEMO: DemoForm = { users: '20000', days: '30', seed: '1', overwrite: false };

export const DEMO_CONTROLS = ['db', 'users', 'days', 'seed', 'overwrite'] as const;
export type DemoControl = (typeof DEMO_CONTROLS)[number];

export function demoControlOf(field: string | undefined): DemoControl | undefined {
  return (DEMO_CONTROLS as readonly string[]).includes(field ?? '') ? (field as DemoControl) : undefined;
}

/** `audience.demoData`'s input: empty numbers left out (the contract's defaults apply), junk sent for the contract to name. */
export function toDemoOptions(profileId: string, db: AudienceTarget, f: DemoForm): CallInput<'audience.demoData'> {
  const o: CallInput<'audience.demoData'> = { profileId, ...db, overwrite: f.overwrite };
  for (const key of ['users', 'days', 'seed'] as const) {
    const n = numberInput(f[key]);
    if (n !== undefined) o[key] = n;
  }
  return o;
}

/** One demo load, folded from `audience.demoProgress` like a trial's view. */
export type DemoView = JobView<DemoEvent>;

export const EMPTY_DEMO: DemoView = EMPTY_JOB;

export const foldDemo = jobFold<DemoEvent, DemoView>();

/** Commands sent over commands to send, 0..1; full once done; undefined before the total is known. */
export function demoFraction(v: DemoView): number | undefined {
  return shareDone(v.outcome, v.progress?.done ?? 0, v.progress?.total ?? v.started?.total);
}
