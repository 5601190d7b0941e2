import { ErrorAlert } from '../../../components/ErrorAlert';
import { useCall } from '../../../bridge/useCall';
import { formatCount, formatDuration } from '../../../lib/format';
import { ValueText } from './ValueText';
import type { Where } from './viewProps';

/** XINFO STREAM and its groups: each group's consumers and its oldest pending entries. */
export function StreamGroups({ where }: { where: Where }) {
  const info = useCall('keys.streamInfo', where);
  const s = info.data;
  const ms = (n: number) => (n < 1000 ? `${n} ms` : formatDuration(n / 1000));
  return (
    <section className="kv-stream-info" data-testid="kv-stream-info">
      <h3>Stream</h3>
      <ErrorAlert error={info.error} title="XINFO failed:" />
      {s !== undefined && (
        <>
          <p className="muted">
            {formatCount(s.length)} entries · first {s.firstId ?? '—'} · last {s.lastId ?? '—'} · last generated {s.lastGeneratedId} · {s.groups.length}{' '}
            consumer group{s.groups.length === 1 ? '' : 's'}
          </p>
          {s.groups.map((g) => (
            <div className="kv-group" key={g.name.b64} data-testid="kv-stream-group">
              <h4>
                <ValueText value={g.name} />{' '}
                <span className="muted">
                  {g.consumers} consumers · {formatCount(g.pending)} pending · last delivered {g.lastDeliveredId} · lag{' '}
                  {g.lag === null ? 'unknown' : formatCount(g.lag)}
                </span>
              </h4>
              {g.consumerList.length > 0 && (
                <table className="data-table kv-small-table">
                  <thead>
                    <tr>
                      <th>Consumer</th>
                      <th className="num">Pending</th>
                      <th className="num">Idle</th>
                    </tr>
                  </thead>
                  <tbody>
                    {g.consumerList.map((c) => (
                      <tr key={c.name.b64}>
                        <td>
                          <ValueText value={c.name} />
                        </td>
                        <td className="num">{formatCount(c.pending)}</td>
                        <td className="num">{ms(c.idleMs)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {g.pendingEntries.length > 0 && (
                <table className="data-table kv-small-table" data-testid="kv-stream-pending">
                  <caption>Oldest pending entries</caption>
                  <thead>
                    <tr>
                      <th>Entry</th>
                      <th>Consumer</th>
                      <th className="num">Idle</th>
                      <th className="num">Deliveries</th>
                    </tr>
                  </thead>
                  <tbody>
                    {g.pendingEntries.map((p) => (
                      <tr key={p.id}>
                        <td className="mono">{p.id}</td>
                        <td>
                          <ValueText value={p.consumer} />
                        </td>
                        <td className="num">{ms(p.idleMs)}</td>
                        <td className="num">{formatCount(p.deliveries)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </div>
          ))}
        </>
      )}
    </section>
  );
}
