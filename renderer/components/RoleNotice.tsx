import type { Name } from '../../app/contract';
import { usePermission } from '../auth/usePermission';
import { roleNeeded } from '../auth/permissions';

/**
 * What a page says instead of its controls to a user whose role the contract refuses
 * it: no button that could only fail, and nothing to "try again".
 */
export function RoleNotice({ needs, what }: { needs: Name; what: string }) {
  const { allowed, reason } = usePermission(needs);
  if (allowed) return null;
  return (
    <section className="panel empty-state" data-testid="role-notice" data-needs={roleNeeded(needs)}>
      <h2>For {roleNeeded(needs)} users</h2>
      <p>
        {what} {reason}
      </p>
      <p className="muted">Ask someone with that role to do it, or to give you the role (cacheboard user add).</p>
    </section>
  );
}
