import type { SamplingEvent } from '../../../app/schemas/sampling';
import { EMPTY_JOB, jobFold, shareDone, type JobView } from '../../lib/jobView';

export type ProgressEvent = Extract<SamplingEvent, { kind: 'progress' }>;

/**
 * Everything the page shows about one run, folded from its `sampling.progress` events.
 * `report` is the latest partial report while it runs, the final one after done or cancelled.
 */
export type RunView = JobView<SamplingEvent>;

export const EMPTY_RUN: RunView = EMPTY_JOB;

/** Fold a batch of events into the view (see jobFold); a partial report never replaces one that examined more. */
export const foldRun = jobFold<SamplingEvent, RunView>({
  own: (v, e) => (v.report !== undefined && e.report.keysExamined < v.report.keysExamined ? v : { ...v, report: e.report }),
});

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
  return shareDone(v.outcome, examinedOf(v), targetOf(v));
}

/** Seconds left on a straight line through the rate so far; undefined before there is a rate. */
export function etaOf(p: ProgressEvent | undefined): number | undefined {
  if (p === undefined || p.examined <= 0 || p.elapsedMs <= 0) return undefined;
  const left = Math.max(0, p.target - p.examined);
  return ((p.elapsedMs / 1000) * left) / p.examined;
}
