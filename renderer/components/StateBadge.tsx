import type { ConnectionState } from '../../app/schemas/connections';

/** A profile's pool state from the `connections.state` stream; the detail is the tooltip. */
export function StateBadge({ state }: { state: ConnectionState | undefined }) {
  const name = state?.state ?? 'unknown';
  return (
    <span className={`badge badge-${name}`} data-testid="state-badge" title={state?.detail}>
      {name}
    </span>
  );
}
