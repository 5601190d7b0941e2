import type { LoadReport } from '../../../app/schemas/bulk';
import { formatCount } from '../../lib/format';
import { plural } from '../../lib/plural';

/**
 * swap: the writes other clients made to the live DB during the load, and
 * how many the switch discarded; "not counted" with the reason when they
 * could not be counted (never shown as zero).
 */
export function LiveWritesRow({ report: r }: { report: LoadReport }) {
  const w = r.liveWrites;
  if (w === undefined) return null;
  return (
    <tr>
      <th scope="row">Live DB writes</th>
      <td data-testid="bulk-report-live-writes" data-writes={w.writes ?? ''} data-discarded={w.discarded}>
        {w.writes === undefined ? (
          <span className="bulk-verdict is-neutral">not counted</span>
        ) : (
          <span className={`bulk-verdict ${w.writes === 0 ? 'is-ok' : 'is-bad'}`}>
            {formatCount(w.writes)} by other clients to db{w.db}
          </span>
        )}{' '}
        <span className="bulk-kv-sub">{formatCount(w.discarded)} discarded by the switch</span>
        {w.keys.length > 0 && <span className="bulk-kv-sub">first keys: {w.keys.join(', ')}</span>}
        {w.note !== undefined && <span className="bulk-kv-sub">{w.note}</span>}
      </td>
    </tr>
  );
}

/** swap: a staging DB the failed load left as it was (other clients' keys in it), and the command that empties it. */
export function StagingLeftRow({ report: r }: { report: LoadReport }) {
  const s = r.stagingLeft;
  if (s === undefined) return null;
  return (
    <tr>
      <th scope="row">Staging DB left</th>
      <td data-testid="bulk-report-staging-left" data-db={s.db}>
        <span className="bulk-verdict is-bad">
          db{s.db} NOT flushed ({plural(s.keys, 'key')})
        </span>
        <span className="bulk-kv-sub">{s.reason}</span>
        <span className="bulk-kv-sub">
          Look at it, then empty it with:{' '}
          <code className="mono" data-testid="bulk-clean-command">
            {s.cleanCommand}
          </code>
        </span>
      </td>
    </tr>
  );
}
