import { memo } from 'react';
import { formatCount, formatPercent } from '../../lib/format';
import { cellText } from './lineText';
import type { StatsEvent } from './paneFeed';

/** The share of all lines, with "<0.1 %" rather than a misleading 0.0 %. */
function share(count: number, total: number): string {
  if (total <= 0) return '—';
  return count > 0 && count / total < 0.001 ? '<0.1 %' : formatPercent(count / total);
}

function Top({ title, rows, total, testId }: { title: string; rows: StatsEvent['topCommands']; total: number; testId: string }) {
  return (
    <table className="data-table mon-top" data-testid={testId}>
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col" className="num">
            Count
          </th>
          <th scope="col" className="num">
            %
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 ? (
          <tr>
            <td colSpan={3} className="empty">
              Nothing yet.
            </td>
          </tr>
        ) : (
          rows.map((r) => (
            <tr key={r.name} data-name={r.name}>
              <th scope="row" title={r.name.length > 48 ? cellText(r.name, 2000) : undefined}>
                {cellText(r.name, 48)}
              </th>
              <td className="num">{formatCount(r.count)}</td>
              <td className="num">{share(r.count, total)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

/**
 * The node's busiest commands and hottest keys since MONITOR opened, in the manner
 * of redis-faina: count and share of every line. Key counts are "at least" beyond
 * the heaviest (the server keeps a bounded counter).
 */
export const TopTables = memo(function TopTables({ stats, live }: { stats: StatsEvent | undefined; live: boolean }) {
  if (stats === undefined) return live ? <p className="empty">Top commands and keys arrive with the first stats, a second after the start.</p> : null;
  const total = stats.received - stats.unparsed;
  return (
    <div className="mon-tops">
      <Top title="Top commands" rows={stats.topCommands} total={total} testId="monitor-top-commands" />
      <Top title="Hot keys" rows={stats.topKeys.slice(0, 10)} total={total} testId="monitor-top-keys" />
    </div>
  );
});
