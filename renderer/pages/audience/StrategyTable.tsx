import type { StrategyName, StrategyResult } from '../../../app/schemas/audience';
import { STRATEGIES } from './form';
import { strategyRows, type StrategyRow } from './results';

type Figure = 'minMs' | 'p50Ms' | 'p95Ms' | 'meanMs' | 'serverMs' | 'vsBest' | 'commands' | 'bytesOut' | 'bytesIn' | 'audienceSize';

const FIGURES: readonly { key: Figure; head: string; title: string }[] = [
  { key: 'minMs', head: 'min', title: 'Fastest of the K timed runs, measured in the client' },
  { key: 'p50Ms', head: 'p50', title: 'Median of the K timed runs' },
  { key: 'p95Ms', head: 'p95', title: '95th percentile of the K timed runs' },
  { key: 'meanMs', head: 'mean', title: 'Mean of the K timed runs' },
  { key: 'serverMs', head: 'server', title: 'Time inside Redis per run: INFO commandstats usec deltas over the timed runs' },
  { key: 'vsBest', head: 'vs best', title: 'p50 over the fastest strategy’s p50' },
  { key: 'commands', head: 'cmds', title: 'Commands sent per run (a script counts as one)' },
  { key: 'bytesOut', head: 'out', title: 'Bytes written to the socket per run' },
  { key: 'bytesIn', head: 'in', title: 'Bytes read from the socket per run' },
  { key: 'audienceSize', head: 'size', title: 'The audience size this strategy answered' },
];

/** A row per strategy: latencies, server time, commands and bytes, whether it matched, or why it was skipped. */
export function StrategyTable({ strategies, pending }: { strategies: readonly StrategyResult[]; pending: readonly StrategyName[] }) {
  const rows = strategyRows(strategies);
  return (
    <table className="data-table job-table aud-table" data-testid="aud-strategies">
      <thead>
        <tr>
          <th scope="col">Strategy</th>
          <th scope="col" className="num" title="Timed runs (K)">
            runs
          </th>
          {FIGURES.map((f) => (
            <th key={f.key} scope="col" className="num" title={f.title}>
              {f.head}
            </th>
          ))}
          <th scope="col" title="Same size and the same count on every day as the reference (the first strategy that ran)">
            matches
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <Row key={r.name} row={r} />
        ))}
        {pending.map((name) => (
          <tr key={name} className="job-pending" data-strategy={name} data-state="pending">
            <th scope="row">{name}</th>
            <td colSpan={FIGURES.length + 2} className="muted">
              not run yet
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Row({ row: r }: { row: StrategyRow }) {
  const name = (
    <th scope="row" title={STRATEGIES[r.name].detail}>
      <span className="aud-swatch" style={{ background: r.color }} aria-hidden="true" />
      <span className="mono">{r.name}</span>
    </th>
  );
  if (r.skipped !== undefined) {
    return (
      <tr data-strategy={r.name} data-state="skipped" className="aud-skipped">
        {name}
        <td colSpan={FIGURES.length + 2} data-col="skipped">
          <span className="tag tag-warn">skipped</span> {r.skipped}
        </td>
      </tr>
    );
  }
  return (
    <tr data-strategy={r.name} data-state="ran">
      {name}
      <td className="num" data-col="runs">
        {r.runs}
      </td>
      {FIGURES.map((f) => (
        <td key={f.key} className={`num${f.key === 'p50Ms' ? ' job-strong' : ''}`} data-col={f.key}>
          {r[f.key]}
        </td>
      ))}
      <td data-col="matches" className={r.matches ? 'aud-match' : 'aud-mismatch'}>
        {r.matches ? '✓' : '✗ differs'}
      </td>
    </tr>
  );
}
