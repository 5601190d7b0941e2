import type { NodeSample } from '../../../app/schemas/metrics';
import { formatCount, formatPercent } from '../../lib/format';

type Keyspace = NonNullable<NodeSample['keyspace']>;

/** INFO keyspace of one node: one row per DB that holds keys. */
export function KeyspaceTable({ keyspace, stale }: { keyspace: Keyspace; stale?: string }) {
  const total = keyspace.reduce((n, k) => n + k.keys, 0);
  return (
    <table className="data-table ov-table" data-testid="keyspace-table">
      <caption>
        Keyspace
        {keyspace.length > 1 && <span className="muted ov-caption-sub"> {formatCount(total)} keys in all</span>}
        {stale !== undefined && <span className="ov-stale"> {stale}</span>}
      </caption>
      <thead>
        <tr>
          <th scope="col">DB</th>
          <th scope="col" className="num">
            Keys
          </th>
          <th scope="col" className="num">
            With TTL
          </th>
          <th scope="col" className="num">
            % TTL
          </th>
        </tr>
      </thead>
      <tbody>
        {keyspace.length === 0 ? (
          <tr>
            <td colSpan={4} className="empty">
              No keys in any DB.
            </td>
          </tr>
        ) : (
          keyspace.map((k) => (
            <tr key={k.db} data-db={k.db}>
              <th scope="row">db{k.db}</th>
              <td className="num">{formatCount(k.keys)}</td>
              <td className="num">{formatCount(k.expires)}</td>
              <td className="num">{formatPercent(k.keys > 0 ? k.expires / k.keys : undefined)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
