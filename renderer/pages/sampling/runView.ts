import type { SamplingEvent, SamplingReport } from '../../../app/schemas/sampling';

export type StartedEvent = Extract<SamplingEvent, { kind: 'started' }>;
export type ProgressEvent = Extract<SamplingEvent, { kind: 'progress' }>;
export type RunOutcome = 'done' | 'cancelled' | 'failed';

/** Everything the page shows about one run, folded from its `sampling.progress` events. */
export interface RunView {
  started: StartedEvent | undefined;
  progress: ProgressEvent | undefined;
  /** The latest partial report while it runs; the final one after done or cancelled. */
  report: SamplingReport | undefined;
  outcome: RunOutcome | undefined;
  error: { code: string; message: string } | undefined;
}

export const EMPTY_RUN: RunView = {
  started: undefined,
  progress: undefined,
  report: undefined,
  outcome: undefined,
  error: undefined,
};

/**
 * Fold a batch of events into the view. Idempotent under replay: the server replays
 * `started`, the latest progress and partial report and the final event to every new
 * subscription, and useStream keeps the folded value across a reconnect, so events
 * may arrive twice. Nothing older than what is held replaces it, and nothing follows
 * the final event. Returns `view` itself when nothing changed.
 */
export function foldRun(view: RunView, events: readonly SamplingEvent[]): RunView {
  let v = view;
  for (const e of events) v = foldOne(v, e);
  return v;
}

function foldOne(v: RunView, e: SamplingEvent): RunView {
  if (v.outcome !== undefined) return v;
  switch (e.kind) {
    case 'started':
      return v.started === undefined ? { ...v, started: e } : v;
    case 'progress':
      return v.progress !== undefined && e.elapsedMs <= v.progress.elapsedMs ? v : { ...v, progress: e };
    case 'partial':
      return v.report !== undefined && e.report.keysExamined < v.report.keysExamined ? v : { ...v, report: e.report };
    case 'done':
    case 'cancelled':
      return { ...v, report: e.report, outcome: e.kind };
    case 'failed':
      return { ...v, outcome: 'failed', error: e.error };
  }
}

export function isFinished(v: RunView): boolean {
  return v.outcome !== undefined;
}

/** Keys examined so far: the progress count, or the final report's when it is newer. */
export function examinedOf(v: RunView): number {
  const fromReport = v.report?.keysExamined ?? 0;
  return Math.max(v.progress?.examined ?? 0, v.outcome === undefined ? 0 : fromReport);
}

/** What the run is heading for: samples, or DBSIZE for a census (an estimate: keys come and go). */
export function targetOf(v: RunView): number | undefined {
  return v.progress?.target ?? v.started?.target;
}

/** Share done, 0..1; a finished run is full; undefined while nothing says how far it goes. */
export function fractionOf(v: RunView): number | undefined {
  if (v.outcome === 'done') return 1;
  const target = targetOf(v);
  if (target === undefined || target <= 0) return v.outcome === undefined ? undefined : 0;
  return Math.min(1, examinedOf(v) / target);
}

/** Seconds left on a straight line through the rate so far; undefined before there is a rate. */
export function etaOf(p: ProgressEvent | undefined): number | undefined {
  if (p === undefined || p.examined <= 0 || p.elapsedMs <= 0) return undefined;
  const left = Math.max(0, p.target - p.examined);
  return ((p.elapsedMs / 1000) * left) / p.examined;
}
