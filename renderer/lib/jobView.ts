/**
 * What every job's progress stream shares (a sampling run, a pipeline or audience
 * trial, a demo load): `started` once, `progress` with the time it has run, and one
 * final event, `done` or `cancelled` with the report or `failed` with the reason.
 * A page's view of a job holds those; its own events (a partial report, a finished
 * variant) it folds itself.
 */
export type JobOutcome = 'done' | 'cancelled' | 'failed';

type Common = 'started' | 'progress' | JobOutcome;
type Started<E> = Extract<E, { kind: 'started' }>;
type Progress<E> = Extract<E, { kind: 'progress' }>;
export type JobReport<E> = Extract<E, { kind: 'done' | 'cancelled' }> extends { report: infer R } ? R : never;
export type JobFailure<E> = Extract<E, { kind: 'failed' }> extends { error: infer F } ? F : never;
/** The events a stream has besides the common ones. */
export type OwnEvent<E> = Exclude<E, { kind: Common }>;

export interface JobView<E> {
  started: Started<E> | undefined;
  progress: Progress<E> | undefined;
  /** The final report once the job ended (a page may also hold a partial one before). */
  report: JobReport<E> | undefined;
  outcome: JobOutcome | undefined;
  error: JobFailure<E> | undefined;
}

export const EMPTY_JOB = { started: undefined, progress: undefined, report: undefined, outcome: undefined, error: undefined } as const;

interface Rules<E, V> {
  /** A stream's own events; returns `v` itself when the event is one it holds already. */
  own?(v: V, e: OwnEvent<E>): V;
  /** What the final report replaces besides `report` (the results that came in one by one). */
  ended?(v: V, report: JobReport<E>): V;
}

/**
 * The fold of a job's event batches into its view. Idempotent under replay: the
 * server replays `started`, the latest progress and the end to every new
 * subscription, and useStream keeps the folded value across a reconnect, so events
 * may arrive twice. The first `started` stays, older progress never replaces newer,
 * nothing follows the final event, and `view` itself comes back when nothing changed.
 */
export function jobFold<E extends { kind: string }, V extends JobView<E>>(rules: Rules<E, V> = {}) {
  function foldOne(v: V, e: E): V {
    if (v.outcome !== undefined) return v;
    switch (e.kind) {
      case 'started':
        return v.started === undefined ? { ...v, started: e as Started<E> } : v;
      case 'progress': {
        const p = e as Progress<E> & { elapsedMs: number };
        return v.progress !== undefined && p.elapsedMs <= (v.progress as typeof p).elapsedMs ? v : { ...v, progress: p };
      }
      case 'done':
      case 'cancelled': {
        const { report } = e as unknown as { report: JobReport<E> };
        const ended = { ...v, report, outcome: e.kind };
        return rules.ended === undefined ? ended : rules.ended(ended, report);
      }
      case 'failed':
        return { ...v, outcome: 'failed', error: (e as unknown as { error: JobFailure<E> }).error };
      default:
        return rules.own === undefined ? v : rules.own(v, e as OwnEvent<E>);
    }
  }
  return (view: V, events: readonly E[]): V => events.reduce(foldOne, view);
}

/**
 * Share done, 0..1, of `count` out of `total`: full once the job is done; while it
 * runs and nothing says how far it goes, undefined (the bar slides); 0 if it ended so.
 */
export function shareDone(outcome: JobOutcome | undefined, count: number, total: number | undefined): number | undefined {
  if (outcome === 'done') return 1;
  if (total === undefined || total <= 0) return outcome === undefined ? undefined : 0;
  return Math.min(1, count / total);
}

interface Timed {
  outcome: JobOutcome | undefined;
  progress: { elapsedMs: number } | undefined;
  report: { seconds: number } | undefined;
}

/** Seconds the job has taken: the latest progress while it runs, the report's total (setup and cleanup included) once it ended. */
export function elapsedSeconds(v: Timed): number {
  const progressed = (v.progress?.elapsedMs ?? 0) / 1000;
  return v.outcome === undefined ? progressed : (v.report?.seconds ?? progressed);
}
