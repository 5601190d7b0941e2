import type { ShardCounts } from '../../../../app/schemas/keyActions';
import { formatCount } from '../../../lib/format';
import { MasterTableHead } from '../../../components/MasterTableHead';

/**
 * A cluster run, per master: its own keys SCANned, and what it matched (and, for a real run,
 * did). Nothing for a single server: its one row would repeat the totals.
 */
export function ShardTable({ shards, dryRun, testId }: { shards: readonly ShardCounts[]; dryRun: boolean; testId: string }) {
  if (shards.length < 2) return null;
  const heads = dryRun ? ['Scanned', 'Matched'] : ['Scanned', 'Matched', 'Acted', 'Skipped', 'Errors'];
  return (
    <table className="data-table ka-shards" data-testid={testId}>
      <caption>Per master</caption>
      <MasterTableHead heads={heads} />
      <tbody>
        {shards.map((s) => (
          <tr key={s.node} data-node={s.node}>
            <td className="mono">
              {s.node}
              {!s.done && <span className="tag tag-warn">not finished</span>}
            </td>
            <td className="num">{formatCount(s.scanned)}</td>
            <td className="num" data-col="matched">
              {formatCount(s.matched)}
            </td>
            {!dryRun && (
              <>
                <td className="num">{formatCount(s.acted)}</td>
                <td className="num">{formatCount(s.skipped)}</td>
                <td className="num">{formatCount(s.errors)}</td>
              </>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
