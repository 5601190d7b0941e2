import type { TrialKind, TrialReport, VariantName } from '../../../app/schemas/trials';
import { formatCount } from '../../lib/format';
import { formatRatio, paramsText, proxyText } from './results';
import { VARIANT_NAMES } from './trialView';

/** A run that ended with figures, kept for this page session to compare with others. */
export interface KeptRun {
  jobId: string;
  profileName: string;
  outcome: 'done' | 'cancelled';
  /** When it ended, epoch ms. */
  endedAt: number;
  report: TrialReport;
}

/** More than anyone compares at once; the oldest go first. */
export const MAX_KEPT = 30;

/**
 * Kept runs, newest first, in memory only: leaving the page keeps them, a reload
 * forgets them. `list()` returns the same array until something changes
 * (useSyncExternalStore relies on it).
 */
export class KeptRuns {
  private runs: readonly KeptRun[] = [];
  private readonly listeners = new Set<() => void>();

  list = (): readonly KeptRun[] => this.runs;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Keep a run once (a replayed end adds nothing); a run with no finished variant is not worth comparing. */
  add(run: KeptRun): void {
    if (run.report.variants.length === 0 || this.runs.some((r) => r.jobId === run.jobId)) return;
    this.set([run, ...this.runs].slice(0, MAX_KEPT));
  }

  remove(jobId: string): void {
    if (this.runs.some((r) => r.jobId === jobId)) this.set(this.runs.filter((r) => r.jobId !== jobId));
  }

  private set(runs: readonly KeptRun[]): void {
    this.runs = runs;
    for (const l of this.listeners) l();
  }
}

/** A cell of the comparison: a variant's rate, with its ratio or its p99 beneath. */
export interface ComparisonCell {
  rate: string;
  sub: string | undefined;
}

export interface ComparisonRow {
  jobId: string;
  /** "#3", numbered in the order runs were kept (the oldest kept is #1). */
  number: string;
  profileName: string;
  address: string;
  params: string;
  proxy: string;
  outcome: 'done' | 'cancelled';
  cells: Partial<Record<VariantName, ComparisonCell>>;
}

/** Kept runs of one trial, in one table: a column per variant. */
export interface ComparisonGroup {
  trial: TrialKind;
  variants: { variant: VariantName; name: string }[];
  rows: ComparisonRow[];
}

const ORDER: readonly TrialKind[] = ['pipeline', 'multiplex', 'load'];

/** Group kept runs by trial for side-by-side tables, keeping their order (newest first). */
export function comparisonGroups(runs: readonly KeptRun[]): ComparisonGroup[] {
  const groups: ComparisonGroup[] = [];
  for (const trial of ORDER) {
    const mine = runs.filter((r) => r.report.trial === trial);
    if (mine.length === 0) continue;
    const variants: VariantName[] = [];
    for (const r of mine) for (const v of r.report.variants) if (!variants.includes(v.variant)) variants.push(v.variant);
    groups.push({
      trial,
      variants: variants.map((variant) => ({ variant, name: VARIANT_NAMES[variant] })),
      rows: mine.map((r) => rowOf(r, runs.length - runs.indexOf(r))),
    });
  }
  return groups;
}

function rowOf(run: KeptRun, n: number): ComparisonRow {
  const cells: Partial<Record<VariantName, ComparisonCell>> = {};
  for (const v of run.report.variants) {
    const sub = v.latency !== undefined ? `p99 ${v.latency.p99Ms.toFixed(2)} ms` : v.ratio !== undefined ? formatRatio(v.ratio) : undefined;
    cells[v.variant] = { rate: `${formatCount(v.opsPerSec)}/s`, sub };
  }
  return {
    jobId: run.jobId,
    number: `#${n}`,
    profileName: run.profileName,
    address: run.report.address,
    params: paramsText(run.report),
    proxy: proxyText(run.report.latency?.requestedMs),
    outcome: run.outcome,
    cells,
  };
}
