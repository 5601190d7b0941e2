import type { CallInput } from '../../../app/contract';
import type { DemoEvent, DemoReport } from '../../../app/schemas/audience';
import { numberInput } from '../../lib/formInput';

/** The demo dataset's size as typed; small by default so a click takes seconds, not minutes. */
export interface DemoForm {
  users: string;
  days: string;
  seed: string;
  /** Write into a DB that already holds keys (demo keys are replaced, others left alone). */
  overwrite: boolean;
}

export const DEFAULT_DEMO: DemoForm = { users: '20000', days: '30', seed: '1', overwrite: false };

export const DEMO_CONTROLS = ['users', 'days', 'seed', 'overwrite'] as const;
export type DemoControl = (typeof DEMO_CONTROLS)[number];

export function demoControlOf(field: string | undefined): DemoControl | undefined {
  return (DEMO_CONTROLS as readonly string[]).includes(field ?? '') ? (field as DemoControl) : undefined;
}

/** `audience.demoData`'s input: empty numbers left out (the contract's defaults apply), junk sent for the contract to name. */
export function toDemoOptions(profileId: string, db: { db?: number }, f: DemoForm): CallInput<'audience.demoData'> {
  const o: CallInput<'audience.demoData'> = { profileId, ...db, overwrite: f.overwrite };
  for (const key of ['users', 'days', 'seed'] as const) {
    const n = numberInput(f[key]);
    if (n !== undefined) o[key] = n;
  }
  return o;
}

type Started = Extract<DemoEvent, { kind: 'started' }>;
type Progress = Extract<DemoEvent, { kind: 'progress' }>;

/** One demo load, folded from `audience.demoProgress`; idempotent under replay like the trial's view. */
export interface DemoView {
  started: Started | undefined;
  progress: Progress | undefined;
  report: DemoReport | undefined;
  outcome: 'done' | 'cancelled' | 'failed' | undefined;
  error: { code: string; message: string; field?: string } | undefined;
}

export const EMPTY_DEMO: DemoView = { started: undefined, progress: undefined, report: undefined, outcome: undefined, error: undefined };

export function foldDemo(view: DemoView, events: readonly DemoEvent[]): DemoView {
  let v = view;
  for (const e of events) {
    if (v.outcome !== undefined) break;
    if (e.kind === 'started') v = v.started === undefined ? { ...v, started: e } : v;
    else if (e.kind === 'progress') v = v.progress !== undefined && e.elapsedMs <= v.progress.elapsedMs ? v : { ...v, progress: e };
    else if (e.kind === 'failed') v = { ...v, outcome: 'failed', error: e.error };
    else v = { ...v, report: e.report, outcome: e.kind };
  }
  return v;
}

/** Commands sent over commands to send, 0..1; full once done; undefined before the total is known. */
export function demoFraction(v: DemoView): number | undefined {
  if (v.outcome === 'done') return 1;
  const total = v.progress?.total ?? v.started?.total;
  if (total === undefined || total <= 0) return v.outcome === undefined ? undefined : 0;
  return Math.min(1, (v.progress?.done ?? 0) / total);
}
