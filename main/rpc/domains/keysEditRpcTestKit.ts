import type { CallOutput } from '../../../app/contract';
import type { Role } from '../../../app/define';
import type { RpcClient } from '../../../app/rpcClient';
import type { AuditEntry } from '../../core/audit/auditLog';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import { keysEditHandler } from './keys';
import { roleClients, domainRpcBase } from './domainRpcTestKit';

/** Tests only: keys.edit behind a real dispatcher, one in-memory client per role, and its audit log. */
export interface KeysEditRpc {
  as(role: Role): RpcClient;
  edit(role: Role, input: Record<string, unknown>): Promise<CallOutput<'keys.edit'>>;
  /** The audit log's entries, oldest first, and its raw bytes. */
  audit(): AuditEntry[];
  auditBytes(): Buffer;
  close(): Promise<void>;
}

export function keysEditRpc(builtin: StoredProfile[]): KeysEditRpc {
  const base = domainRpcBase('cb-keys-edit-rpc-', builtin);
  const { profiles, pool, audit } = base;
  const dispatcher = new Dispatcher(base.handlers({ 'keys.edit': keysEditHandler({ profiles, pool, audit }) }));
  const as = roleClients(dispatcher);
  return {
    as,
    edit: (role, input) => as(role).invoke('keys.edit', input as never),
    audit: base.auditEntries,
    auditBytes: base.auditBytes,
    close: base.close,
  };
}
