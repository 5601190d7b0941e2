import type { SamplingReport } from '../../../app/schemas/sampling';
import { formatBytes, formatCount } from '../../lib/format';
import { formatCiRange, formatCi, formatMemoryInterval, formatShare, memoryIntervalTitle } from './report';
import { TypeName } from './TypeName';

type Share = { count: number; percent: number; ciLow: number; ciHigh: number };

/** Count, share and (for a sample) the 95% interval: the cells every share table starts with. */
function ShareCells({ s, sample }: { s: Share; sample: boolean }) {
  return (
    <>
      <td className="num" data-col="count">
        {formatCount(s.count)}
      </td>
      <td className="num" data-col="percent">
        {formatShare(s.percent)}
      </td>
      {sample && (
        <td className="num smp-ci" data-col="ci" title={`95% confidence interval ${formatCiRange(s)}`}>
          {formatCi(s) || '—'}
        </td>
      )}
    </>
  );
}

function ShareHeads({ sample }: { sample: boolean }) {
  return (
    <>
      <th scope="col" className="num">
        Keys
      </th>
      <th scope="col" className="num">
        %
      </th>
      {sample && (
        <th scope="col" className="num" title="Half-width of the 95% confidence interval (Wilson)">
          ±95% CI
        </th>
      )}
    </>
  );
}

/** A sampled memory figure's interval, or "not estimable" with the reason beside it. */
export function MemoryIntervalCell({ interval }: { interval: SamplingReport['memoryTotalInterval'] }) {
  const refused = 'notEstimable' in interval;
  return (
    <td className={`num smp-ci${refused ? ' smp-not-estimable' : ''}`} data-col="memory-interval" title={memoryIntervalTitle(interval)}>
      {formatMemoryInterval(interval)}
      {refused && <span className="smp-ci-why">{interval.notEstimable}</span>}
    </td>
  );
}

/** Types: count, share, interval, memory, and for a sample the figures scaled to DBSIZE. */
export function TypesTable({ report: r }: { report: SamplingReport }) {
  const sample = r.method === 'sample';
  return (
    <table className="data-table smp-table" data-testid="sampling-types">
      <caption>
        Types
        {sample && <span className="muted smp-caption-sub"> estimates scale the sample to DBSIZE {formatCount(r.dbsize)}</span>}
      </caption>
      <thead>
        <tr>
          <th scope="col">Type</th>
          <ShareHeads sample={sample} />
          <th scope="col" className="num">
            Memory
          </th>
          {sample && (
            <>
              <th scope="col" className="num">
                Est. keys
              </th>
              <th scope="col" className="num">
                Est. memory
              </th>
              <th scope="col" className="num" title="95% confidence interval of the estimated memory, or why there is none">
                95% interval
              </th>
            </>
          )}
        </tr>
      </thead>
      <tbody>
        {r.types.map((t) => (
          <tr key={t.type} data-type={t.type}>
            <th scope="row">
              <TypeName type={t.type} />
            </th>
            <ShareCells s={t} sample={sample} />
            <td className="num" data-col="memory">
              {formatBytes(t.memory)}
            </td>
            {sample && (
              <>
                <td className="num" data-col="estimated-count">
                  ≈ {formatCount(t.estimatedCount)}
                </td>
                <td className="num" data-col="estimated-memory">
                  ≈ {formatBytes(t.estimatedMemory)}
                </td>
                <MemoryIntervalCell interval={t.memoryInterval} />
              </>
            )}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr data-type="total">
          <th scope="row">all</th>
          <td className="num" data-col="count">
            {formatCount(r.types.reduce((n, t) => n + t.count, 0))}
          </td>
          <td className="num">100 %</td>
          {sample && <td />}
          <td className="num">{formatBytes(r.memoryTotal)}</td>
          {sample && (
            <>
              <td className="num">≈ {formatCount(r.dbsize)}</td>
              <td className="num">≈ {formatBytes(r.estimatedMemoryTotal)}</td>
              <MemoryIntervalCell interval={r.memoryTotalInterval} />
            </>
          )}
        </tr>
      </tfoot>
    </table>
  );
}

/** Encodings per type (listpack, hashtable, intset…): what the memory optimisations are doing. */
export function EncodingsTable({ report: r }: { report: SamplingReport }) {
  const sample = r.method === 'sample';
  return (
    <table className="data-table smp-table" data-testid="sampling-encodings">
      <caption>Encodings</caption>
      <thead>
        <tr>
          <th scope="col">Type</th>
          <th scope="col">Encoding</th>
          <ShareHeads sample={sample} />
        </tr>
      </thead>
      <tbody>
        {r.encodings.map((e) => (
          <tr key={`${e.type}/${e.encoding}`} data-type={e.type} data-encoding={e.encoding}>
            <th scope="row">
              <TypeName type={e.type} />
            </th>
            <td className="mono">{e.encoding}</td>
            <ShareCells s={e} sample={sample} />
          </tr>
        ))}
      </tbody>
    </table>
  );
}
