import { describe, expect, it } from 'vitest';
import { contract, type Name } from '../../app/contract';
import { isRestricted, permissionOf, roleOf } from './permissions';

const analyst = { authRequired: true, user: 'ana', role: 'analyst' as const };
const ops = { authRequired: true, user: 'olga', role: 'ops' as const };

describe('permissions', () => {
  it('is ops where nobody signs in (desktop, local mode), else the signed-in role', () => {
    expect(roleOf({ authRequired: false })).toBe('ops');
    expect(roleOf(analyst)).toBe('analyst');
    expect(roleOf(ops)).toBe('ops');
  });

  it("follows the contract's role of every call and stream, and says why not", () => {
    for (const name of Object.keys(contract) as Name[]) {
      const need = contract[name].role;
      expect(isRestricted(name), name).toBe(need === 'ops');
      expect(permissionOf(ops, name).allowed, name).toBe(true);
      expect(permissionOf({ authRequired: false }, name).allowed, name).toBe(true);
      expect(permissionOf(analyst, name), name).toEqual(
        need === 'ops' ? { allowed: false, reason: 'Needs the ops role; you are signed in as analyst.' } : { allowed: true, reason: undefined },
      );
    }
  });
});
