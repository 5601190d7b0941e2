import type { Name } from '../../app/contract';
import { permissionOf, type Permission } from './permissions';
import { useSession } from './SessionContext';

/** Whether the signed-in user may use `name` (a contract call or stream), from the contract's role table. */
export function usePermission(name: Name): Permission {
  return permissionOf(useSession().session, name);
}
