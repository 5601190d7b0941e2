import type { AudienceEvent, AudienceReport, StrategyResult } from '../../../app/schemas/audience';

export type StartedEvent = Extract<AudienceEvent, { kind: 'started' }>;
export type ProgressEvent = Extract<AudienceEvent, { kind: 'progress' }>;
export type RunError = Extract<AudienceEvent, { kind: 'failed' }>['error'];
export type RunOutcome = 'done' | 'cancelled' | 'failed';

/** Everything the page shows about one trial, folded from its `audience.progress` events. */
export interface RunView {
  started: StartedEvent | undefined;
  progress: ProgressEvent | undefined;
  /** Strategies that finished, in the order they did; the report's once it ended. */
  results: readonly StrategyResult[];
  report: AudienceReport | undefined;
  outcome: RunOutcome | undefined;
  error: RunError | undefined;
}

export const EMPTY_RUN: RunView = {
  started: undefined,
  progress: undefined,
  results: [],
  report: undefined,
  outcome: undefined,
  error: undefined,
};

/**
 * Fold a batch of events into the view. Idempotent under replay (a late or
 * re-subscribed stream gets `started`, every strategy result, the latest progress
 * and the end again): a strategy already held is not added twice, older progress
 * never replaces newer, nothing follows the end. Returns `view` itself when nothing changed.
 */
export function foldRun(view: RunView, events: readonly AudienceEvent[]): RunView {
  let v = view;
  for (const e of events) {
    if (v.outcome !== undefined) break;
    switch (e.kind) {
      case 'started':
        if (v.started === undefined) v = { ...v, started: e };
        break;
      case 'progress':
        if (v.progress === undefined || e.elapsedMs > v.progress.elapsedMs) v = { ...v, progress: e };
        break;
      case 'strategy':
        if (!v.results.some((r) => r.name === e.result.name)) v = { ...v, results: [...v.results, e.result] };
        break;
      case 'done':
      case 'cancelled':
        v = { ...v, results: e.report.strategies, report: e.report, outcome: e.kind };
        break;
      case 'failed':
        v = { ...v, outcome: 'failed', error: e.error };
        break;
    }
  }
  return v;
}

/**
 * Share of the runs done, 0..1: each strategy that runs counts warm-up + K runs; a
 * finished trial is full; undefined before the server said what it will run.
 */
export function fractionOf(v: RunView): number | undefined {
  if (v.outcome === 'done') return 1;
  const s = v.started;
  if (s === undefined || s.strategies.length === 0) return v.outcome === undefined ? undefined : 0;
  const perStrategy = Math.max(1, s.warmup + s.trials);
  const finished = s.strategies.filter((name) => v.results.some((r) => r.name === name)).length;
  const p = v.progress;
  const current = p === undefined || v.results.some((r) => r.name === p.strategy) ? 0 : (p.phase === 'timed' ? s.warmup : 0) + p.run;
  return Math.min(1, (finished * perStrategy + Math.min(current, perStrategy)) / (s.strategies.length * perStrategy));
}

/** The step in words: "bitmap-lua · timed run 3 of 10". */
export function stepText(p: ProgressEvent): string {
  return `${p.strategy} · ${p.phase === 'warmup' ? 'warm-up' : 'timed'} run ${p.run} of ${p.runs}`;
}
