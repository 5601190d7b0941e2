import type { Percentiles, VariantResult } from '../../../app/schemas/trials';
import { variantRows, type VariantRow } from './results';

type Figure = 'ops' | 'seconds' | 'opsPerSec' | 'ratio' | 'keys';

const FIGURES: readonly { key: Figure; head: string; title: string }[] = [
  { key: 'ops', head: 'Ops', title: 'Commands the variant counts (SETs, INCRs, requests; not MULTI, EXEC or SELECT)' },
  { key: 'seconds', head: 'Time', title: 'Wall time of the variant' },
  { key: 'opsPerSec', head: 'Ops/s', title: 'Ops over time' },
  { key: 'ratio', head: 'Ratio', title: 'Ops/s over the first variant’s (the baseline)' },
  { key: 'keys', head: 'Keys', title: 'Scratch keys the variant left, counted as they were removed' },
];

const PERCENTILES: readonly { key: keyof Percentiles; head: string }[] = [
  { key: 'p50Ms', head: 'p50' },
  { key: 'p95Ms', head: 'p95' },
  { key: 'p99Ms', head: 'p99' },
  { key: 'maxMs', head: 'max' },
];

/** A trial's results, a row per variant: ratios where there is a baseline, latency percentiles for the load trial. */
export function VariantTable({ variants, pending }: { variants: readonly VariantResult[]; pending: readonly string[] }) {
  const rows = variantRows(variants);
  const ratios = variants.some((v) => v.ratio !== undefined);
  const latency = variants.some((v) => v.latency !== undefined);
  const baseline = variants[0]?.variant ?? 'first';
  const figures = FIGURES.filter((f) => f.key !== 'ratio' || ratios);
  return (
    <table className="data-table job-table trial-results-table" data-testid="trials-results">
      <thead>
        <tr>
          <th scope="col">Variant</th>
          {figures.map((f) => (
            <th key={f.key} scope="col" className="num" title={f.title}>
              {f.key === 'ratio' ? `vs ${baseline}` : f.head}
            </th>
          ))}
          {latency &&
            PERCENTILES.map((p) => (
              <th key={p.key} scope="col" className="num" title="Request latency, from a log-linear histogram (within ~1.6%)">
                {p.head}
              </th>
            ))}
          <th scope="col" className="num">
            Errors
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <Row key={r.variant} row={r} figures={figures} latency={latency} />
        ))}
        {pending.map((name) => (
          <tr key={name} className="job-pending">
            <th scope="row">{name}</th>
            <td colSpan={figures.length + (latency ? PERCENTILES.length : 0) + 1} className="muted">
              not run yet
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Row({ row: r, figures, latency }: { row: VariantRow; figures: typeof FIGURES; latency: boolean }) {
  return (
    <tr data-variant={r.variant}>
      <th scope="row">
        <span className="trial-variant">{r.name}</span>
        {r.detail !== undefined && <span className="job-cell-sub">{r.detail}</span>}
      </th>
      {figures.map((f) => (
        <td key={f.key} className={`num${f.key === 'opsPerSec' || f.key === 'ratio' ? ' job-strong' : ''}`} data-col={f.key}>
          {r[f.key]}
        </td>
      ))}
      {latency &&
        PERCENTILES.map((p) => (
          <td key={p.key} className="num" data-col={p.key}>
            {r.latency?.[p.key] ?? '—'}
          </td>
        ))}
      <td className={`num${r.hasErrors ? ' trial-errors' : ''}`} data-col="errors">
        {r.errors}
      </td>
    </tr>
  );
}
