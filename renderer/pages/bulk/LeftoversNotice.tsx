import { useCall } from '../../bridge/useCall';
import { plural } from '../../lib/plural';

/**
 * What the server put right at its start after loads that died (a stale staging DB
 * flushed, automatic saves restored), so that a leak fixed in the background is
 * still said where loads are run. Nothing is drawn when there was nothing to do.
 */
export function LeftoversNotice() {
  const { data } = useCall('bulk.leftovers', {});
  const cleanups = data?.cleanups ?? [];
  if (cleanups.length === 0) return null;
  return (
    <div className="notice" role="status" data-testid="bulk-leftovers">
      <strong>Cleaned up at start, after loads that did not finish:</strong>
      <ul>
        {cleanups.map((c, i) => (
          <li key={i}>
            {c.db !== undefined && c.keys !== undefined ? `DB ${c.db} on ${c.address}: ${plural(c.keys, 'key')} flushed. ` : ''}
            {c.message}
          </li>
        ))}
      </ul>
    </div>
  );
}
