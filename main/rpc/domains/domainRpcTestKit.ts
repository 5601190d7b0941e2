import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract, type Name } from '../../../app/contract';
import type { Role } from '../../../app/define';
import { RpcClient } from '../../../app/rpcClient';
import type { ServerMessage } from '../../../app/wire';
import { AuditLog, type AuditEntry } from '../../core/audit';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { Pool } from '../../core/pool/pool';
import { ProfileStore } from '../../core/pool/profileStore';
import type { StoredProfile } from '../../core/pool/types';
import type { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { createMemoryWirePair } from '../wireTestKit';

/** Tests only: what a domain's RPC test kit stands on: a fresh data dir, its profiles, a pool and an audit log. */
export interface DomainRpcBase {
  dir: string;
  profiles: ProfileStore;
  pool: Pool;
  audit: AuditLog;
  /** The domain's handlers over every other contract entry refusing loudly: only the domain is under test. */
  handlers(underTest: Partial<Handlers>): Handlers;
  /** The audit log's entries, oldest first. */
  auditEntries(): AuditEntry[];
  /** The audit log's raw bytes (none before its first entry). */
  auditBytes(): Buffer;
  /** Shuts the pool and removes the dir: close what the domain added first. */
  close(): Promise<void>;
}

/** `prefix` names the temp dir (`cb-console-rpc-`); `configProfiles` are the REDIS_URL or config-file profiles. */
export function domainRpcBase(prefix: string, configProfiles: StoredProfile[]): DomainRpcBase {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const profiles = new ProfileStore({ dataDir: dir, secretBox: noSecretBox('tests'), definitionLocked: configProfiles });
  const pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  const auditFile = join(dir, 'audit.log');
  const audit = new AuditLog(auditFile);
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  return {
    dir,
    profiles,
    pool,
    audit,
    handlers: (underTest) => ({ ...unused, ...underTest }) as Handlers,
    auditEntries: () => audit.tail(1000).reverse(),
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

/**
 * An in-memory client per role on `dispatcher`, signed in as `<role>-user`;
 * `onFrame` sees every message the server sends either of them.
 */
export function roleClients(dispatcher: Dispatcher, onFrame?: (m: ServerMessage) => void): (role: Role) => RpcClient {
  const clients = new Map<Role, RpcClient>();
  for (const role of ['analyst', 'ops'] as const) {
    const { server, client: end } = createMemoryWirePair();
    dispatcher.attach(server, { role, user: `${role}-user` });
    const client = new RpcClient((m) => end.send(m));
    end.onMessage((m) => {
      onFrame?.(m);
      client.receive(m);
    });
    clients.set(role, client);
  }
  return (role) => clients.get(role) as RpcClient;
}
