import type { SweepPoint, TrialEvent, TrialReport, VariantName, VariantResult } from '../../../app/schemas/trials';

export type StartedEvent = Extract<TrialEvent, { kind: 'started' }>;
export type ProgressEvent = Extract<TrialEvent, { kind: 'progress' }>;
export type TrialError = Extract<TrialEvent, { kind: 'failed' }>['error'];
export type TrialOutcome = 'done' | 'cancelled' | 'failed';

/** Everything the page shows about one run, folded from its `trials.progress` events. */
export interface TrialView {
  started: StartedEvent | undefined;
  progress: ProgressEvent | undefined;
  /** Finished variants and sweep points as they came in; the report's once it ended. */
  variants: readonly VariantResult[];
  sweep: readonly SweepPoint[];
  report: TrialReport | undefined;
  outcome: TrialOutcome | undefined;
  error: TrialError | undefined;
}

export const EMPTY_TRIAL: TrialView = {
  started: undefined,
  progress: undefined,
  variants: [],
  sweep: [],
  report: undefined,
  outcome: undefined,
  error: undefined,
};

/**
 * Fold a batch of events into the view, idempotent under the server's replay to a
 * new subscription: a variant or sweep point already held is not added twice,
 * older progress never replaces newer, nothing follows the final event, and the
 * same view comes back when nothing changed.
 */
export function foldTrial(view: TrialView, events: readonly TrialEvent[]): TrialView {
  return events.reduce(foldOne, view);
}

function foldOne(v: TrialView, e: TrialEvent): TrialView {
  if (v.outcome !== undefined) return v;
  switch (e.kind) {
    case 'started':
      return v.started === undefined ? { ...v, started: e } : v;
    case 'progress':
      return v.progress !== undefined && e.elapsedMs <= v.progress.elapsedMs ? v : { ...v, progress: e };
    case 'variant':
      return v.variants.some((r) => r.variant === e.result.variant) ? v : { ...v, variants: [...v.variants, e.result] };
    case 'sweep':
      return v.sweep.some((p) => p.size === e.point.size) ? v : { ...v, sweep: [...v.sweep, e.point] };
    case 'done':
    case 'cancelled':
      return { ...v, variants: e.report.variants, sweep: e.report.sweep, report: e.report, outcome: e.kind };
    case 'failed':
      return { ...v, outcome: 'failed', error: e.error };
  }
}

/** Share of the run's commands sent, 0..1; a finished run is full; undefined before the server said how many. */
export function fractionOf(v: TrialView): number | undefined {
  if (v.outcome === 'done') return 1;
  const total = v.progress?.total ?? v.started?.total;
  if (total === undefined || total <= 0) return v.outcome === undefined ? undefined : 0;
  return Math.min(1, (v.progress?.done ?? 0) / total);
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
