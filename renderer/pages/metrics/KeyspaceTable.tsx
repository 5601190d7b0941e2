import type { NodeSample } from '../../../app/schemas/metrics';
import { formatCount, formatPercent } from '../../lib/format';
import { plural } from '../../lib/plural';

type Keyspace = NonNullable<NodeSample['keyspace']>;

/**
 * INFO keyspace of one node: one row per DB that holds keys. A server with hash-field
 * expiry (Redis 7.4+) reports `subexpiry`, the hashes whose fields expire: without a
 * key TTL they are not in "With TTL", so they get a column of their own.
 */
export function KeyspaceTable({ keyspace, stale }: { keyspace: Keyspace; stale?: string }) {
  const total = keyspace.reduce((n, k) => n + k.keys, 0);
  const subexpiry = keyspace.some((k) => k.subexpiry !== undefined);
  const columns = subexpiry ? 5 : 4;
  return (
    <table className="data-table ov-table" data-testid="keyspace-table">
      <caption>
        Keyspace
        {keyspace.length > 1 && <span className="muted ov-caption-sub"> {plural(total, 'key')} in all</span>}
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
          {subexpiry && (
            <th scope="col" className="num" title="Hashes whose fields expire (INFO keyspace subexpiry)">
              Fields expire
            </th>
          )}
        </tr>
      </thead>
      <tbody>
        {keyspace.length === 0 ? (
          <tr>
            <td colSpan={columns} className="empty">
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
              {subexpiry && (
                <td className="num" data-col="subexpiry">
                  {k.subexpiry === undefined ? '—' : formatCount(k.subexpiry)}
                </td>
              )}
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
