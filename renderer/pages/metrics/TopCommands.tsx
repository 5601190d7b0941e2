import { useState } from 'react';
import type { NodeSample } from '../../../app/schemas/metrics';
import { formatMicros } from '../../lib/display';
import { formatCount, truncate } from '../../lib/format';

type Commands = NonNullable<NodeSample['topCommands']>;

const SHOWN = 12;

/** INFO commandstats of the selected node, busiest first (calls/s over the last poll). */
export function TopCommands({ commands, address }: { commands: Commands | undefined; address: string }) {
  const [all, setAll] = useState(false);
  const sorted = [...(commands ?? [])].sort((a, b) => b.callsPerSec - a.callsPerSec || b.calls - a.calls);
  const shown = all ? sorted : sorted.slice(0, SHOWN);
  return (
    <div className="panel ov-panel-flush">
      <table className="data-table ov-table" data-testid="top-commands">
        <caption>
          Top commands <span className="muted mono ov-caption-sub">{address}</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">Command</th>
            <th scope="col" className="num">
              Calls/s
            </th>
            <th scope="col" className="num">
              Calls
            </th>
            <th scope="col" className="num ov-nocase" title="Average microseconds per call">
              µs/call
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.length === 0 ? (
            <tr>
              <td colSpan={4} className="empty">
                {commands === undefined ? 'No command stats from this node.' : 'No commands run yet.'}
              </td>
            </tr>
          ) : (
            shown.map((c) => (
              <tr key={c.command} data-command={c.command}>
                <th scope="row" title={c.command}>
                  {truncate(c.command, 32)}
                </th>
                <td className="num">{formatCount(c.callsPerSec)}</td>
                <td className="num">{formatCount(c.calls)}</td>
                <td className="num" title={formatMicros(c.usecPerCall)}>
                  {c.usecPerCall.toFixed(2)}
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
      {sorted.length > SHOWN && (
        <button type="button" className="btn btn-small btn-ghost" onClick={() => setAll((v) => !v)}>
          {all ? `Show top ${SHOWN}` : `Show all ${sorted.length}`}
        </button>
      )}
    </div>
  );
}
