import type { SweepPoint, TrialEvent, VariantName, VariantResult } from '../../../app/schemas/trials';
import { EMPTY_JOB, jobFold, shareDone, type JobFailure, type JobView } from '../../lib/jobView';

export type TrialError = JobFailure<TrialEvent>;

/** Everything the page shows about one run, folded from its `trials.progress` events. */
export interface TrialView extends JobView<TrialEvent> {
  /** Finished variants and sweep points as they came in; the report's once it ended. */
  variants: readonly VariantResult[];
  sweep: readonly SweepPoint[];
}

export const EMPTY_TRIAL: TrialView = { ...EMPTY_JOB, variants: [], sweep: [] };

/** Fold a batch of events into the view (see jobFold); a variant or sweep point already held is not added twice. */
export const foldTrial = jobFold<TrialEvent, TrialView>({
  own(v, e) {
    if (e.kind === 'variant') return v.variants.some((r) => r.variant === e.result.variant) ? v : { ...v, variants: [...v.variants, e.result] };
    return v.sweep.some((p) => p.size === e.point.size) ? v : { ...v, sweep: [...v.sweep, e.point] };
  },
  ended: (v, report) => ({ ...v, variants: report.variants, sweep: report.sweep }),
});

/** Share of the run's commands sent, 0..1; a finished run is full; undefined before the server said how many. */
export function fractionOf(v: TrialView): number | undefined {
  return shareDone(v.outcome, v.progress?.done ?? 0, v.progress?.total ?? v.started?.total);
}

/** Short names for the variants, for the step line, tables and charts (the server's label says how). */
export const VARIANT_NAMES: Record<VariantName, string> = {
  plain: 'plain',
  pipelined: 'pipelined',
  multi: 'MULTI/EXEC',
  pipelinedMulti: 'pipelined MULTI/EXEC',
  blocking: 'blocking SELECT',
  multiplexed: 'multiplexed pool',
  fireAndForget: 'fire and forget',
  set: 'SET',
  get: 'GET',
};

function isVariant(step: string): step is VariantName {
  return Object.hasOwn(VARIANT_NAMES, step);
}

/** What a progress step means: "pipelined", "sweep: MULTI of 20, pipelined". */
export function stepLabel(step: string): string {
  if (isVariant(step)) return VARIANT_NAMES[step];
  const sweep = /^sweep:(\d+)(?::(plain|pipelined))?$/.exec(step);
  if (sweep !== null) return `sweep: MULTI of ${sweep[1]}${sweep[2] === undefined ? '' : `, ${sweep[2]}`}`;
  return step;
}
