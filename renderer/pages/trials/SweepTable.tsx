import type { SweepPoint } from '../../../app/schemas/trials';
import { formatCount } from '../../lib/format';
import { sweepSeries } from './chartRows';
import { formatRatio } from './results';

/** The sweep's figures beside its chart. */
export function SweepTable({ sweep }: { sweep: readonly SweepPoint[] }) {
  return (
    <table className="data-table job-table" data-testid="trials-sweep">
      <thead>
        <tr>
          <th scope="col" className="num">
            MULTI of
          </th>
          <th scope="col" className="num">
            Plain/s
          </th>
          <th scope="col" className="num">
            Pipelined/s
          </th>
          <th scope="col" className="num">
            Ratio
          </th>
        </tr>
      </thead>
      <tbody>
        {sweepSeries(sweep).map((p) => (
          <tr key={p.size} data-size={p.size}>
            <td className="num">{p.size}</td>
            <td className="num">{formatCount(p.plain)}</td>
            <td className="num">{formatCount(p.pipelined)}</td>
            <td className="num job-strong">{formatRatio(p.ratio)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
