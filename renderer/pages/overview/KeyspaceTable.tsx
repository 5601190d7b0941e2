import type { InfoSnapshot } from '../../../app/schemas/server';
import { formatAvgTtl, formatCount } from '../../lib/format';

/** INFO keyspace: one row per DB that holds keys. */
export function KeyspaceTable({ keyspace }: { keyspace: InfoSnapshot['keyspace'] }) {
  return (
    <table className="data-table" data-testid="keyspace-table">
      <caption>Keyspace</caption>
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
            Avg TTL
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
              <td className="num">{formatAvgTtl(k.avgTtl)}</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}
