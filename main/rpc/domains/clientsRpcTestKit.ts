import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientRows } from '../../../app/clientColumns';
import { contract, type CallOutput, type Name } from '../../../app/contract';
import type { Role } from '../../../app/define';
import type { RpcClient } from '../../../app/rpcClient';
import type { ClientRow, NodeClients } from '../../../app/schemas/clients';
import { AuditLog, type AuditEntry } from '../../core/audit/auditLog';
import { MetricsHub } from '../../core/metrics/metricsHub';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { Pool } from '../../core/pool/pool';
import { ProfileStore } from '../../core/pool/profileStore';
import { toAppError } from '../../core/pool/redisErrors';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { refusalEntry } from './auditTrail';
import { clientsHandlers } from './clients';
import { roleClients } from './keysEditRpcTestKit';

/** A node of clients.list with its clients as objects (the wire has them as columns). */
export type NodeRows = Omit<NodeClients, 'clients'> & { clients: ClientRow[] };
export type ListRows = Omit<CallOutput<'clients.list'>, 'nodes'> & { nodes: NodeRows[] };

/** Tests only: the clients.* entries behind a real dispatcher (refusals audited as the runtime does), a client per role. */
export interface ClientsRpc {
  as(role: Role): RpcClient;
  /** clients.list, its columns turned into objects. */
  list(role: Role, profileId: string, idleSeconds?: number): Promise<ListRows>;
  /** The audit log's entries, oldest first. */
  audit(): AuditEntry[];
  close(): Promise<void>;
}

export function clientsRpc(builtin: StoredProfile[]): ClientsRpc {
  const dir = mkdtempSync(join(tmpdir(), 'cb-clients-rpc-'));
  const profiles = new ProfileStore({ dataDir: dir, secretBox: noSecretBox('tests'), readOnly: builtin });
  const pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  const metrics = new MetricsHub({ pool });
  const audit = new AuditLog(join(dir, 'audit.log'));
  // Only the clients entries are under test; the rest refuse loudly.
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  const dispatcher = new Dispatcher({ ...unused, ...clientsHandlers({ pool, metrics, profiles, audit }) } as Handlers, {
    mapError: (e) => toAppError(e),
    onRefused: (r) => audit.append(refusalEntry(r)),
  });
  const as = roleClients(dispatcher);
  return {
    as,
    list: async (role, profileId, idleSeconds) => {
      const list = await as(role).invoke('clients.list', idleSeconds === undefined ? { profileId } : { profileId, idleSeconds });
      return { ...list, nodes: list.nodes.map((n) => ({ ...n, clients: clientRows(n.clients) })) };
    },
    audit: () => audit.tail(1000).reverse(),
    async close() {
      await metrics.shutdown();
      await pool.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
