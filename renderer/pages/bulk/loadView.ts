import type { LoadEvent, LoadReport } from '../../../app/schemas/bulk';
import { appendOps, EMPTY_SERIES, type OpsSeries, type ProgressEvent } from './progress';

export type LoadPhase = Extract<LoadEvent, { kind: 'phase' }>['phase'];
export type Outcome = LoadReport['outcome'];

/** Everything the page shows about one load, folded from its `bulk.progress` events. */
export interface LoadView {
  /** The latest phase entered. */
  phase: LoadPhase | undefined;
  phaseAt: number;
  /** Each phase seen, with its latest message. */
  phases: Partial<Record<LoadPhase, { message: string; at: number }>>;
  /** The first event's time: the load's start. */
  startedAt: number | undefined;
  progress: ProgressEvent | undefined;
  series: OpsSeries;
  warnings: { message: string; at: number }[];
  /** Warnings beyond the kept ones (the report still lists them all). */
  warningsOmitted: number;
  report: LoadReport | undefined;
}

export const EMPTY_LOAD: LoadView = {
  phase: undefined,
  phaseAt: 0,
  phases: {},
  startedAt: undefined,
  progress: undefined,
  series: EMPTY_SERIES,
  warnings: [],
  warningsOmitted: 0,
  report: undefined,
};

export const MAX_POINTS = 600;
export const MAX_WARNINGS = 200;

const TERMINAL: ReadonlySet<LoadPhase> = new Set(['done', 'failed', 'cancelled']);

export function isTerminal(v: LoadView): boolean {
  return v.report !== undefined || (v.phase !== undefined && TERMINAL.has(v.phase));
}

/**
 * Fold a batch of events into the view. Idempotent under replay: the server
 * replays a job's whole history to every new subscription, and useStream keeps
 * the folded value across a reconnect, so the same events may arrive twice.
 * Anything not newer than what is held is ignored; returns `view` itself when
 * nothing changed.
 */
export function foldLoad(view: LoadView, events: readonly LoadEvent[]): LoadView {
  let v = view;
  for (const e of events) v = foldOne(v, e);
  return v;
}

function foldOne(v: LoadView, e: LoadEvent): LoadView {
  switch (e.kind) {
    case 'phase': {
      const seen = v.phases[e.phase];
      const startedAt = v.startedAt === undefined ? e.at : Math.min(v.startedAt, e.at);
      if (seen !== undefined && seen.at >= e.at) return v.startedAt === startedAt ? v : { ...v, startedAt };
      const later = e.at >= v.phaseAt;
      return {
        ...v,
        startedAt,
        phases: { ...v.phases, [e.phase]: { message: e.message, at: e.at } },
        phase: later ? e.phase : v.phase,
        phaseAt: later ? e.at : v.phaseAt,
      };
    }
    case 'progress': {
      if (v.progress !== undefined && e.at <= v.progress.at) return v;
      return {
        ...v,
        startedAt: v.startedAt ?? e.at,
        progress: e,
        series: appendOps(v.series, { t: e.at, ops: e.recordsPerSec }, MAX_POINTS),
      };
    }
    case 'warning': {
      if (v.warnings.some((w) => w.at === e.at && w.message === e.message)) return v;
      if (v.warnings.length >= MAX_WARNINGS) return { ...v, warningsOmitted: v.warningsOmitted + 1 };
      return { ...v, warnings: [...v.warnings, { message: e.message, at: e.at }] };
    }
    case 'report':
      return v.report !== undefined && JSON.stringify(v.report) === JSON.stringify(e.report) ? v : { ...v, report: e.report };
  }
}

/** The outcome once known: the report's, else a terminal phase's. */
export function outcomeOf(v: LoadView): Outcome | undefined {
  if (v.report !== undefined) return v.report.outcome;
  if (v.phase === 'done') return 'ok';
  if (v.phase === 'failed' || v.phase === 'cancelled') return v.phase;
  return undefined;
}

export type StepState = 'done' | 'current' | 'pending' | 'skipped' | 'failed' | 'cancelled';

export interface Step {
  phase: LoadPhase;
  state: StepState;
  message: string | undefined;
}

/** The stepper's phases in order; cleanup appears only when the server went through it. */
const STEPS: readonly LoadPhase[] = ['preflight', 'staging', 'loading', 'verifying', 'swapping', 'bgsave', 'replicas'];

/**
 * The phase stepper: every step with its state. A step never entered is
 * `skipped` once a later one started (merge has no staging, no BGSAVE unless
 * asked); the step the load stopped in is `failed` or `cancelled`.
 */
export function stepsOf(v: LoadView): Step[] {
  const outcome = outcomeOf(v);
  const finalPhase: LoadPhase = outcome === 'failed' ? 'failed' : outcome === 'cancelled' ? 'cancelled' : 'done';
  const order: LoadPhase[] = [...STEPS];
  if (v.phases.cleanup !== undefined) order.push('cleanup');
  order.push(finalPhase);

  const terminal = outcome !== undefined;
  // Where the load stopped: the latest non-final phase it entered.
  let stoppedIn: LoadPhase | undefined;
  let stoppedAt = -Infinity;
  for (const p of order) {
    const seen = v.phases[p];
    if (p !== finalPhase && p !== 'cleanup' && seen !== undefined && seen.at >= stoppedAt) {
      stoppedIn = p;
      stoppedAt = seen.at;
    }
  }
  const currentIndex = v.phase === undefined ? -1 : order.indexOf(v.phase);

  return order.map((phase, i): Step => {
    const message = v.phases[phase]?.message;
    let state: StepState;
    if (phase === finalPhase && terminal) {
      state = outcome === 'ok' ? 'done' : outcome;
    } else if (terminal && outcome !== 'ok' && phase === stoppedIn) {
      state = outcome;
    } else if (!terminal && phase === v.phase) {
      state = 'current';
    } else if (v.phases[phase] !== undefined) {
      state = 'done';
    } else {
      state = terminal || i < currentIndex ? 'skipped' : 'pending';
    }
    return { phase, state, message };
  });
}
