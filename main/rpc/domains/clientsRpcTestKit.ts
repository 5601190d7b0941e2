import { clientRows } from '../../../app/clientColumns';
import type { CallOutput } from '../../../app/contract';
import type { Role } from '../../../app/define';
import type { RpcClient } from '../../../app/rpcClient';
import type { ClientRow, NodeClients } from '../../../app/schemas/clients';
import type { AuditEntry } from '../../core/audit/auditLog';
import { MetricsHub } from '../../core/metrics/metricsHub';
import { toAppError } from '../../core/pool/redisErrors';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import { refusalEntry } from './auditTrail';
import { clientsHandlers } from './clients';
import { roleClients, domainRpcBase } from './domainRpcTestKit';

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
  const base = domainRpcBase('cb-clients-rpc-', builtin);
  const { profiles, pool, audit } = base;
  const metrics = new MetricsHub({ pool });
  const dispatcher = new Dispatcher(base.handlers(clientsHandlers({ pool, metrics, profiles, audit })), {
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
    audit: base.auditEntries,
    async close() {
      await metrics.shutdown();
      await base.close();
    },
  };
}
