import type { SamplingReport } from '../../../app/schemas/sampling';
import { formatBytes, formatCount } from '../../lib/format';
import { MemoryIntervalCell } from './ShareTables';
import { MasterTableHead } from '../../components/MasterTableHead';

/**
 * A cluster run, per master: what each holds (DBSIZE), what was examined there and
 * its memory. Nothing for a single server (the report has no `masters`).
 */
export function MastersTable({ report: r }: { report: SamplingReport }) {
  if (r.masters === undefined) return null;
  const sample = r.method === 'sample';
  const heads = ['DBSIZE', sample ? 'Drawn' : 'Examined', sample ? 'Est. memory' : 'Memory', ...(sample ? ['95% interval'] : [])];
  return (
    <div className="panel job-table-panel">
      <table className="data-table smp-table" data-testid="sampling-masters">
        <caption>
          Per master
          <span className="muted smp-caption-sub">
            {sample ? ' draws in proportion to each master’s DBSIZE; memory scaled to it' : ' each master’s own keys, SCANned; replicas skipped'}
          </span>
        </caption>
        <MasterTableHead heads={heads} />
        <tbody>
          {r.masters.map((m) => (
            <tr key={m.address} data-address={m.address}>
              <td className="mono">{m.address}</td>
              <td className="num">{formatCount(m.dbsize)}</td>
              <td className="num">{formatCount(m.keysExamined)}</td>
              <td className="num">{formatBytes(sample ? m.estimatedMemory : m.memory)}</td>
              {sample && <MemoryIntervalCell interval={m.memoryInterval} />}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
