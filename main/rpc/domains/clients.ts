import type { ProfileId } from '../../../app/schemas/common';
import { profileClients, type KilledClient } from '../../core/clients';
import { refuseReadOnlyData } from '../../core/pool/readOnlyProfile';
import type { Handlers } from '../handlers';
import type { Session } from '../session';
import { auditFor } from './auditTrail';
import type { CoreServices } from './services';
import { connectionOf, sessionProfile } from './sessionProfile';

type ClientsHandlers = Pick<Handlers, 'clients.list' | 'clients.kill' | 'clients.pause' | 'clients.unpause'>;

/** A killed client as the audit log names it: id, address and name (no command, no value). */
export function killText(id: string, client: KilledClient | undefined): string {
  if (client === undefined) return `client ${id}: no such client on the node (it left, or was killed already)`;
  return `client ${client.id} at ${client.addr}${client.name === '' ? ' (no name)' : ` named ${client.name}`}`;
}

/** Run `act` on the record: its outcome, or its error's message, against `address`. */
async function audited<T>(
  audit: CoreServices['audit'],
  session: Session,
  action: string,
  address: string,
  act: () => Promise<T>,
  said: (r: T) => { ok: boolean; detail: string },
  failed: string,
): Promise<T> {
  const trail = auditFor(audit, session, action, address);
  trail('started');
  try {
    const r = await act();
    const { ok, detail } = said(r);
    trail(ok ? 'ok' : 'failed', detail);
    return r;
  } catch (e) {
    trail('failed', `${failed}: ${e instanceof Error ? e.message : String(e)}`);
    throw e;
  }
}

/**
 * CLIENT LIST for every role (an analyst's as the profile's analyst Redis user); CLIENT
 * KILL, PAUSE and UNPAUSE for ops only (the contract's role: the dispatcher refuses
 * analysts, and the log records the attempt), never on a read-only-data profile, each with its
 * `confirm` echo checked by the contract, and each on the audit log.
 */
export function clientsHandlers({ pool, metrics, profiles, audit }: Pick<CoreServices, 'pool' | 'metrics' | 'profiles' | 'audit'>): ClientsHandlers {
  const service = profileClients(pool, metrics);
  const opsTarget = (profileId: ProfileId, session: Session): string => {
    const { connectionId, profile } = sessionProfile(profiles, profileId, session);
    refuseReadOnlyData(profile, { refused: 'its clients cannot be killed or paused', instead: 'act on its clients' });
    return connectionId;
  };
  return {
    'clients.list': ({ profileId, idleSeconds }, { session }) => service.list(profileId, connectionOf(profiles, profileId, session), idleSeconds),

    'clients.kill': async ({ profileId, address, id, breakReplication }, { session }) => {
      const connectionId = opsTarget(profileId, session);
      return audited(
        audit,
        session,
        'clients.kill',
        address,
        async () => {
          const r = await service.kill(connectionId, address, id, breakReplication === true);
          return r.client === undefined ? { killed: r.killed } : { killed: r.killed, client: r.client };
        },
        (r) => ({ ok: r.killed, detail: killText(id, r.client) }),
        `client ${id}`,
      );
    },

    'clients.pause': async ({ profileId, address, mode, ms }, { session }) => {
      const connectionId = opsTarget(profileId, session);
      const what = `CLIENT PAUSE ${ms} ${mode}`;
      return audited(
        audit,
        session,
        'clients.pause',
        address,
        () => service.pause(profileId, connectionId, address, mode, ms),
        () => ({ ok: true, detail: what }),
        what,
      );
    },

    'clients.unpause': async ({ profileId, address }, { session }) => {
      const connectionId = opsTarget(profileId, session);
      return audited(
        audit,
        session,
        'clients.unpause',
        address,
        () => service.unpause(profileId, connectionId, address),
        () => ({ ok: true, detail: 'CLIENT UNPAUSE' }),
        'CLIENT UNPAUSE',
      );
    },
  };
}
