import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract, type CallOutput, type Name } from '../../../app/contract';
import type { Role } from '../../../app/define';
import { RpcClient } from '../../../app/rpcClient';
import { AuditLog, type AuditEntry } from '../../core/audit/auditLog';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { Pool } from '../../core/pool/pool';
import { ProfileStore } from '../../core/pool/profileStore';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { createMemoryWirePair } from '../wireTestKit';
import { keysEditHandler } from './keys';

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
  const dir = mkdtempSync(join(tmpdir(), 'cb-keys-edit-rpc-'));
  const profiles = new ProfileStore({ dataDir: dir, secretBox: noSecretBox('tests'), readOnly: builtin });
  const pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  const auditFile = join(dir, 'audit.log');
  const audit = new AuditLog(auditFile);
  // Only keys.edit is under test; the rest refuse loudly.
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  const dispatcher = new Dispatcher({ ...unused, 'keys.edit': keysEditHandler({ profiles, pool, audit }) } as Handlers);
  const as = roleClients(dispatcher);
  return {
    as,
    edit: (role, input) => as(role).invoke('keys.edit', input as never),
    audit: () => audit.tail(1000).reverse(),
    auditBytes: () => {
      try {
        return readFileSync(auditFile);
      } catch {
        return Buffer.alloc(0);
      }
    },
    async close() {
      await pool.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** An in-memory client per role on `dispatcher`, signed in as `<role>-user`. */
export function roleClients(dispatcher: Dispatcher): (role: Role) => RpcClient {
  const clients = new Map<Role, RpcClient>();
  for (const role of ['analyst', 'ops'] as const) {
    const { server, client: end } = createMemoryWirePair();
    dispatcher.attach(server, { role, user: `${role}-user` });
    const client = new RpcClient((m) => end.send(m));
    end.onMessage((m) => client.receive(m));
    clients.set(role, client);
  }
  return (role) => clients.get(role) as RpcClient;
}
