import type { AudienceReport, DayCount, Mismatch, StrategyName, StrategyResult } from '../../../app/schemas/audience';
import { ran } from './results';
import type { RunView } from './runView';

/** What the results section draws: a finished (or cancelled) trial's report, or a running one's figures so far. */
export interface ShownResults {
  state: 'running' | 'done' | 'cancelled';
  normalized: string;
  from: string | undefined;
  to: string | undefined;
  audienceSize: number | undefined;
  days: readonly DayCount[];
  strategies: readonly StrategyResult[];
  /** Strategies announced that have not reported yet. */
  pending: readonly StrategyName[];
  /** Undefined while the trial runs: the cross-check is the report's. */
  countsMatch: boolean | undefined;
  mismatches: readonly Mismatch[];
  warnings: readonly string[];
}

export function reportResults(r: AudienceReport, state: 'done' | 'cancelled'): ShownResults {
  return {
    state,
    normalized: r.normalized,
    from: r.from,
    to: r.to,
    audienceSize: r.strategies.some(ran) ? r.audienceSize : undefined,
    days: r.days,
    strategies: r.strategies,
    pending: [],
    countsMatch: r.countsMatch,
    mismatches: r.mismatches,
    warnings: r.warnings,
  };
}

/**
 * The results as far as they go: the report once the trial ended; before that the
 * first strategy that ran gives the answer (it is the report's reference too).
 * Undefined before the trial started and when it failed.
 */
export function shownResults(v: Pick<RunView, 'started' | 'results' | 'report' | 'outcome'>): ShownResults | undefined {
  if (v.outcome === 'failed' || v.started === undefined) return undefined;
  if (v.outcome !== undefined && v.report !== undefined) return reportResults(v.report, v.outcome);
  const reference = v.results.find(ran);
  const done = new Set(v.results.map((r) => r.name));
  const skipped: StrategyResult[] = v.started.skipped.filter((s) => !done.has(s.name)).map((s) => ({ ...NOT_RUN, name: s.name, skipped: s.reason }));
  return {
    state: 'running',
    normalized: v.started.normalized,
    from: v.started.days[0],
    to: v.started.days.at(-1),
    audienceSize: reference?.audienceSize,
    days: reference?.days ?? [],
    strategies: [...v.results, ...skipped],
    pending: v.started.strategies.filter((s) => !done.has(s)),
    countsMatch: undefined,
    mismatches: [],
    warnings: [],
  };
}

const NOT_RUN: Omit<StrategyResult, 'name'> = {
  runs: 0,
  minMs: 0,
  p50Ms: 0,
  p95Ms: 0,
  meanMs: 0,
  serverMs: 0,
  commands: 0,
  bytesOut: 0,
  bytesIn: 0,
  audienceSize: 0,
  days: [],
  matches: false,
};
