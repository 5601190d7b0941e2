import type { AudienceReport } from '../../../app/schemas/audience';
import { comparePair, whenText } from './history';

/** Two saved runs side by side, the older as A: what they asked and each strategy's p50, with how B compares. */
export function PairTable({ x, y }: { x: AudienceReport; y: AudienceReport }) {
  const { a, b, rows } = comparePair(x, y);
  return (
    <div className="panel job-table-panel">
      <table className="data-table job-table aud-pair" data-testid="aud-compare">
        <caption>Comparing two runs</caption>
        <thead>
          <tr>
            <th scope="col" />
            <th scope="col">{`A · ${whenText(a.finishedAt)}`}</th>
            <th scope="col">{`B · ${whenText(b.finishedAt)}`}</th>
            <th scope="col">B against A</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.label} data-row={r.label}>
              <th scope="row">{r.label}</th>
              <td className="aud-pair-cell">{r.a}</td>
              <td className="aud-pair-cell">{r.b}</td>
              <td className={r.change === 'differs' || r.change.endsWith('slower') ? 'hint-warn' : undefined} data-col="change">
                {r.change}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
