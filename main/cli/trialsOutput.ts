import type { SweepPoint, TrialReport, VariantResult } from '../../app/schemas/trials';

export type TrialOutcome = 'done' | 'cancelled';

const round = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits;

function figures(f: Pick<VariantResult, 'ops' | 'seconds' | 'opsPerSec'>) {
  return { ops: f.ops, seconds: round(f.seconds, 4), ops_per_sec: Math.round(f.opsPerSec) };
}

function variantJson(v: VariantResult) {
  return {
    label: v.label,
    ...figures(v),
    ...(v.ratio === undefined ? {} : { ratio: round(v.ratio, 3) }),
    keys: v.keys,
    errors: v.errors,
    ...(v.latency === undefined ? {} : { latency: { p50_ms: v.latency.p50Ms, p95_ms: v.latency.p95Ms, p99_ms: v.latency.p99Ms, max_ms: v.latency.maxMs } }),
  };
}

function sweepJson(p: SweepPoint) {
  return { size: p.size, plain: figures(p.plain), pipelined: figures(p.pipelined), ratio: round(p.ratio, 3) };
}

/**
 * The JSON `--json` prints: a stable interface for scripts (snake_case, like
 * `load --json`). Variants are keyed by name, in the order they ran, so
 * `jq .variants.pipelined.ratio` reads one figure.
 */
export function trialsJson(r: TrialReport, outcome: TrialOutcome) {
  const p = r.params;
  return {
    trial: r.trial,
    outcome,
    address: r.address,
    dbs: r.dbs,
    params: {
      n: p.n,
      ...(p.batch === undefined ? {} : { batch: p.batch }),
      ...(p.sweepN === undefined ? {} : { sweep_n: p.sweepN }),
      ...(p.clients === undefined ? {} : { clients: p.clients, data_size: p.dataSize, keyspace: p.keyspace }),
    },
    ...(r.latency === undefined
      ? {}
      : {
          latency: {
            requested_ms: r.latency.requestedMs,
            direct_rtt_ms: round(r.latency.directRttMs, 4),
            proxied_rtt_ms: round(r.latency.proxiedRttMs, 4),
            added_rtt_ms: round(r.latency.addedRttMs, 4),
          },
        }),
    variants: Object.fromEntries(r.variants.map((v) => [v.variant, variantJson(v)])),
    sweep: r.sweep.map(sweepJson),
    seconds: round(r.seconds, 3),
    warnings: r.warnings,
  };
}

const int = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(3);

/** A table: the first column left-aligned, the others right-aligned. */
function table(rows: string[][]): string[] {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  return rows.map((r) => `  ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('   ')}`.trimEnd());
}

const WHAT: Record<TrialReport['trial'], (r: TrialReport) => string> = {
  pipeline: (r) => `${r.params.n} SETs per variant, batches of ${r.params.batch}`,
  multiplex: (r) => `${r.params.n} INCRs over db${r.dbs.join(', db')}, batches of ${r.params.batch}`,
  load: (r) => `${r.params.clients} clients, ${r.params.n} requests per command, ${r.params.dataSize}-byte values, keyspace ${r.params.keyspace}`,
};

/** What a person reads: the variants as a table against the baseline, then the sweep. */
export function trialsText(r: TrialReport, outcome: TrialOutcome): string {
  const title = `${r.trial[0]!.toUpperCase()}${r.trial.slice(1)} trial`;
  const lines = [`${outcome === 'cancelled' ? `${title} STOPPED` : title} on ${r.address}/${r.dbs[0]}: ${WHAT[r.trial](r)} (${r.seconds.toFixed(2)} s)`];
  if (r.latency) {
    const l = r.latency;
    lines.push(
      `  through a proxy adding ${l.requestedMs} ms each way: round trip ${ms(l.directRttMs)} ms direct, ${ms(l.proxiedRttMs)} ms proxied (+${ms(l.addedRttMs)})`,
    );
  }
  lines.push('');
  if (r.variants.length === 0) {
    lines.push('  (no variant finished)');
  } else if (r.trial === 'load') {
    lines.push(
      ...table([
        ['command', 'requests/s', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'errors'],
        ...r.variants.map((v) => {
          const l = v.latency;
          return [v.label, int(v.opsPerSec), ...(l ? [l.p50Ms, l.p95Ms, l.p99Ms, l.maxMs].map(ms) : ['', '', '', '']), String(v.errors)];
        }),
      ]),
    );
  } else {
    const base = r.variants[0]!.variant;
    lines.push(
      ...table([
        ['variant', 'seconds', 'ops/s', `vs ${base}`],
        ...r.variants.map((v) => [v.label, v.seconds.toFixed(3), int(v.opsPerSec), v.ratio === undefined ? '' : `${v.ratio.toFixed(2)}x`]),
      ]),
    );
  }
  if (r.sweep.length > 0) {
    lines.push('', `MULTI/EXEC BY TRANSACTION SIZE (${r.params.sweepN} SETs per size)`);
    lines.push(
      ...table([
        ['size', 'plain ops/s', 'pipelined ops/s', 'ratio'],
        ...r.sweep.map((p) => [String(p.size), int(p.plain.opsPerSec), int(p.pipelined.opsPerSec), `${p.ratio.toFixed(2)}x`]),
      ]),
    );
  }
  if (r.warnings.length > 0) lines.push('', 'WARNINGS', ...r.warnings.map((w) => `  ${w}`));
  return `${lines.join('\n')}\n`;
}
