import type { LoadReport } from '../../../app/schemas/bulk';
import { formatCount } from '../../lib/format';

/** A cluster load's per-master counts: where the commands went, what failed, what the cluster redirected. */
export function NodesTable({ nodes, redirects }: { nodes: NonNullable<LoadReport['nodes']>; redirects: LoadReport['redirects'] }) {
  return (
    <table className="data-table" data-testid="bulk-nodes">
      <caption>
        Masters
        {redirects !== undefined &&
          ` (redirects: ${formatCount(redirects.moved)} MOVED, ${formatCount(redirects.ask)} ASK, ${formatCount(redirects.tryagain)} TRYAGAIN)`}
      </caption>
      <thead>
        <tr>
          <th scope="col">Address</th>
          <th scope="col" className="num">
            Commands
          </th>
          <th scope="col" className="num">
            Errors
          </th>
          <th scope="col" className="num">
            Redirected
          </th>
        </tr>
      </thead>
      <tbody>
        {nodes.map((n) => (
          <tr key={n.address}>
            <th scope="row">{n.address}</th>
            <td className="num">{formatCount(n.commands)}</td>
            <td className="num">{formatCount(n.errors)}</td>
            <td className="num">{formatCount(n.redirected)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
