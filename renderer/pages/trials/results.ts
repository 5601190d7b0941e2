import type { Percentiles, SweepPoint, TrialKind, TrialLatency, TrialReport, VariantName, VariantResult } from '../../../app/schemas/trials';
import { formatCount, formatLatency, formatSeconds } from '../../lib/format';
import { VARIANT_NAMES, type TrialView } from './trialView';

/** 24.93 -> "24.9×", 1 -> "1.00×"; "—" where there is no baseline to compare with. */
export function formatRatio(ratio: number | undefined): string {
  if (ratio === undefined || !Number.isFinite(ratio)) return '—';
  const digits = ratio < 10 ? 2 : ratio < 100 ? 1 : 0;
  return `${ratio.toFixed(digits)}×`;
}

/** One row of a trial's results table, as displayed. */
export interface VariantRow {
  variant: VariantName;
  name: string;
  /** How the variant sends its commands (the server's words), when they say more than the name. */
  detail: string | undefined;
  ops: string;
  seconds: string;
  opsPerSec: string;
  ratio: string;
  keys: string;
  errors: string;
  hasErrors: boolean;
  /** Load trial: p50, p95, p99 and max. */
  latency: Record<keyof Percentiles, string> | undefined;
}

export function variantRows(variants: readonly VariantResult[]): VariantRow[] {
  return variants.map((v) => ({
    variant: v.variant,
    name: VARIANT_NAMES[v.variant],
    detail: v.label.toLowerCase() === VARIANT_NAMES[v.variant].toLowerCase() ? undefined : v.label,
    ops: formatCount(v.ops),
    seconds: formatSeconds(v.seconds),
    opsPerSec: formatCount(v.opsPerSec),
    ratio: formatRatio(v.ratio),
    keys: formatCount(v.keys),
    errors: formatCount(v.errors),
    hasErrors: v.errors > 0,
    latency:
      v.latency === undefined
        ? undefined
        : {
            p50Ms: formatLatency(v.latency.p50Ms),
            p95Ms: formatLatency(v.latency.p95Ms),
            p99Ms: formatLatency(v.latency.p99Ms),
            maxMs: formatLatency(v.latency.maxMs),
          },
  }));
}

/** What a run was asked to do, in a line: "N 2,000 · B 100 · sweep 500". */
export function paramsText(report: Pick<TrialReport, 'trial' | 'params' | 'dbs'>): string {
  const p = report.params;
  const part = (label: string, v: number | undefined, unit = '') => (v === undefined ? [] : [`${label} ${formatCount(v)}${unit}`]);
  const db = report.dbs.length > 1 ? `db${report.dbs[0]}–${report.dbs.at(-1)}` : `db${report.dbs[0] ?? '?'}`;
  switch (report.trial) {
    case 'pipeline':
      return [...part('N', p.n), ...part('B', p.batch), ...part('sweep', p.sweepN), db].join(' · ');
    case 'multiplex':
      return [...part('N', p.n), ...part('batch', p.batch), db].join(' · ');
    case 'load':
      return [...part('C', p.clients), ...part('N', p.n), ...part('D', p.dataSize, ' B'), ...part('R', p.keyspace), db].join(' · ');
  }
}

/** The proxy's delay as asked, or "direct". */
export function proxyText(requestedMs: number | undefined): string {
  return requestedMs === undefined ? 'direct' : `+${requestedMs} ms each way`;
}

/** What the results section draws: a live run's figures so far, or a finished run's report. */
export interface Results {
  trial: TrialKind;
  state: 'running' | 'done' | 'cancelled';
  variants: readonly VariantResult[];
  /** Variants announced but not finished, while the run goes. */
  pending: readonly string[];
  sweep: readonly SweepPoint[];
  latency: TrialLatency | undefined;
  warnings: readonly string[];
  /** The parameters, once the report says them. */
  params: string | undefined;
}

/** A finished (or cancelled) run's results, from its report. */
export function reportResults(report: TrialReport, state: 'done' | 'cancelled'): Results {
  return {
    trial: report.trial,
    state,
    variants: report.variants,
    pending: [],
    sweep: report.sweep,
    latency: report.latency,
    warnings: report.warnings,
    params: paramsText(report),
  };
}

/** A run's results as far as they go; undefined before it started or when it failed. */
export function resultsOf(trial: TrialKind, v: Pick<TrialView, 'started' | 'variants' | 'sweep' | 'report' | 'outcome'>): Results | undefined {
  if (v.outcome === 'failed' || v.started === undefined) return undefined;
  // A run cancelled before its first variant finished has no figures to show.
  if (v.outcome !== undefined && v.report !== undefined) return v.report.variants.length === 0 ? undefined : reportResults(v.report, v.outcome);
  const finished = new Set(v.variants.map((r) => r.variant));
  return {
    trial,
    state: 'running',
    variants: v.variants,
    pending: v.started.variants.filter((n) => !finished.has(n)).map((n) => VARIANT_NAMES[n]),
    sweep: v.sweep,
    latency: v.started.latency,
    warnings: [],
    params: undefined,
  };
}

/** What each trial counts. */
export const UNITS: Record<TrialKind, string> = { pipeline: 'SETs', multiplex: 'INCRs', load: 'requests' };
