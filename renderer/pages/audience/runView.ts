import type { AudienceEvent, StrategyResult } from '../../../app/schemas/audience';
import { EMPTY_JOB, jobFold, shareDone, type JobView } from '../../lib/jobView';

export type ProgressEvent = Extract<AudienceEvent, { kind: 'progress' }>;

/** Everything the page shows about one trial, folded from its `audience.progress` events. */
export interface RunView extends JobView<AudienceEvent> {
  /** Strategies that finished, in the order they did; the report's once it ended. */
  results: readonly StrategyResult[];
}

export const EMPTY_RUN: RunView = { ...EMPTY_JOB, results: [] };

/** Fold a batch of events into the view (see jobFold); a strategy already held is not added twice. */
export const foldRun = jobFold<AudienceEvent, RunView>({
  own: (v, e) => (v.results.some((r) => r.name === e.result.name) ? v : { ...v, results: [...v.results, e.result] }),
  ended: (v, report) => ({ ...v, results: report.strategies }),
});

/**
 * Share of the runs done, 0..1: each strategy that runs counts warm-up + K runs; a
 * finished trial is full; undefined before the server said what it will run.
 */
export function fractionOf(v: RunView): number | undefined {
  const s = v.started;
  if (s === undefined) return shareDone(v.outcome, 0, undefined);
  const perStrategy = Math.max(1, s.warmup + s.trials);
  const finished = s.strategies.filter((name) => v.results.some((r) => r.name === name)).length;
  const p = v.progress;
  const current = p === undefined || v.results.some((r) => r.name === p.strategy) ? 0 : (p.phase === 'timed' ? s.warmup : 0) + p.run;
  return shareDone(v.outcome, finished * perStrategy + Math.min(current, perStrategy), s.strategies.length * perStrategy);
}

/** The step in words: "bitmap-lua · timed run 3 of 10". */
export function stepText(p: ProgressEvent): string {
  return `${p.strategy} · ${p.phase === 'warmup' ? 'warm-up' : 'timed'} run ${p.run} of ${p.runs}`;
}
