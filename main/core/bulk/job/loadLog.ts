import type { LoadEvent, LoadReport } from '../../../../app/schemas/bulk';
import { restrictionLine } from '../../../../app/schemas/restrictions';
import { sentences } from '../../text/sentences';
import type { PipeProgress } from '../../resp/types';
import type { Failure } from './loadFailure';
import { countText } from '../../text/countText';

export type LoadPhase = Extract<LoadEvent, { kind: 'phase' }>['phase'];

/** As many as the contract's Restrictions holds. */
const MAX_RESTRICTIONS = 32;

/** A pipe's counts: its progress, or its result with the first error replies. */
type Counts = PipeProgress & { firstErrors?: LoadReport['firstErrors'] };

/**
 * The report a load builds and the events that tell it as it goes: the one
 * place a load, on one server or a cluster, emits, warns, fails and ends.
 */
export class LoadLog {
  private readonly startedAt = Date.now();
  /** How long the pipe ran, once known: ops/s is over that, not over the whole job. */
  loadSeconds: number | undefined;

  constructor(
    readonly report: LoadReport,
    private readonly listener: (e: LoadEvent) => void,
  ) {}

  emit(e: LoadEvent): void {
    try {
      this.listener(e);
    } catch {
      // A failing listener must not take the load (and its cleanup) down with it.
    }
  }

  phase(phase: LoadPhase, message: string): void {
    this.emit({ kind: 'phase', phase, message, at: Date.now() });
  }

  warn(message: string): void {
    this.report.warnings.push(message);
    this.emit({ kind: 'warning', message, at: Date.now() });
  }

  /**
   * A protection this load did not apply because the server refused or lacks `command` (a
   * managed service, an ACL user): kept in the report's restrictions, and said as a warning
   * unless a warning with the server's own words already said it (`say` false).
   */
  unprotected(command: string, effect: string, say = true): void {
    const list = (this.report.restrictions ??= []);
    if (list.some((r) => r.command === command && r.effect === effect) || list.length >= MAX_RESTRICTIONS) return;
    list.push({ command, effect });
    if (say) this.warn(restrictionLine({ command, effect }));
  }

  /** The pipe's counts as far as it got. */
  take(p: Counts): void {
    const r = this.report;
    r.records = p.records;
    r.commands = p.commands;
    r.replies = p.replies;
    r.errors = p.errors;
    if (p.firstErrors !== undefined) r.firstErrors = p.firstErrors.slice(0, 100);
  }

  /** The outcome and the error: what stopped the load, then what it left the data as (`state`). */
  fail(f: Failure, state: string): void {
    this.report.outcome = f.outcome;
    this.report.error = { code: f.code, message: sentences(f.message, state), ...(f.field === undefined ? {} : { field: f.field }) };
  }

  /** Duration and rate, the last phase (done, failed or cancelled), then the report as the last event. */
  finish(doneMessage: (r: LoadReport) => string): LoadReport {
    const r = this.report;
    r.seconds = (Date.now() - this.startedAt) / 1000;
    const loading = this.loadSeconds ?? r.seconds;
    r.opsPerSec = loading > 0 ? Math.round(r.replies / loading) : 0;
    r.recordsPerSec = loading > 0 ? Math.round(r.records / loading) : 0;
    this.phase(r.outcome === 'ok' ? 'done' : r.outcome, r.error?.message ?? doneMessage(r));
    this.emit({ kind: 'report', report: r });
    return r;
  }
}

/** The data after a flush or merge that stopped midway: written straight into its target, so partly there. */
export function partiallyLoaded(target: string, r: LoadReport, f: Failure): string {
  const acknowledged = Math.max(0, r.replies - r.errors);
  return (
    `${target} is partially loaded: ${countText(acknowledged)} of ${countText(r.commands)} commands sent were acknowledged` +
    (f.outcomeUnknown ? '; the outcome of the commands in flight is unknown' : '')
  );
}
