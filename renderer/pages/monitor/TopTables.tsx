import { memo, type ReactNode } from 'react';
import { KeyOpenLink } from '../../components/KeyOpenLink';
import { formatCount, formatPercent } from '../../lib/format';
import { cellText } from './lineText';
import type { StatsEvent } from './paneFeed';

/** The share of all lines, with "<0.1 %" rather than a misleading 0.0 %. */
function share(count: number, total: number): string {
  if (total <= 0) return '—';
  return count > 0 && count / total < 0.001 ? '<0.1 %' : formatPercent(count / total);
}

/**
 * The server keeps at most this many characters of a MONITOR argument (main/core/monitor's
 * MAX_ARG_CHARS), cutting a few sooner so an escape is not split: a name this long may be cut,
 * so it gets no link rather than a link to another key.
 */
const MONITOR_ARG_CHARS = 1024;
const mayBeCut = (name: string) => name.length >= MONITOR_ARG_CHARS - 4;

interface TopProps {
  title: string;
  rows: StatsEvent['topCommands'];
  total: number;
  testId: string;
  /** Hot keys: each name opens in the Keys page of this profile (its own DB: MONITOR names no DB per key here). */
  linkTo?: string;
}

function Top({ title, rows, total, testId, linkTo }: TopProps) {
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
                {linked(linkTo, r.name, cellText(r.name, 48))}
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

function linked(profileId: string | undefined, name: string, shown: ReactNode): ReactNode {
  if (profileId === undefined) return shown;
  return (
    <KeyOpenLink profileId={profileId} escaped={name} cut={mayBeCut(name)}>
      {shown}
    </KeyOpenLink>
  );
}

/**
 * The node's busiest commands and hottest keys since MONITOR opened, in the manner
 * of redis-faina: count and share of every line. Key counts are "at least" beyond
 * the heaviest (the server keeps a bounded counter).
 */
export const TopTables = memo(function TopTables({ stats, live, profileId }: { stats: StatsEvent | undefined; live: boolean; profileId: string }) {
  if (stats === undefined) return live ? <p className="empty">Top commands and keys arrive with the first stats, a second after the start.</p> : null;
  const total = stats.received - stats.unparsed;
  return (
    <div className="mon-tops">
      <Top title="Top commands" rows={stats.topCommands} total={total} testId="monitor-top-commands" />
      <Top title="Hot keys" rows={stats.topKeys.slice(0, 10)} total={total} testId="monitor-top-keys" linkTo={profileId} />
    </div>
  );
});
