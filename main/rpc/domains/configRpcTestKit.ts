import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract, type CallInput, type CallOutput, type Name } from '../../../app/contract';
import type { Role } from '../../../app/define';
import { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import { AuditLog, type AuditEntry } from '../../core/audit/auditLog';
import { MetricsHub } from '../../core/metrics/metricsHub';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { Pool } from '../../core/pool/pool';
import { ProfileStore } from '../../core/pool/profileStore';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { createMemoryWirePair } from '../wireTestKit';
import { refusalEntry } from './auditTrail';
import { configHandlers } from './config';

type ConfigCall = 'config.get' | 'config.set' | 'config.rewrite';

/** Tests only: the config domain behind a real dispatcher (roles, refusals audited), with every reply kept. */
export interface ConfigRpc {
  call<N extends ConfigCall>(role: Role, name: N, input: CallInput<N>): Promise<CallOutput<N>>;
  /** The error a call ended with (fails the test when it succeeded). */
  refused(role: Role, name: ConfigCall, input: unknown): Promise<AppError>;
  /** Every message the server sent either client, as the JSON text that crossed the wire. */
  frames(): string[];
  audit(): AuditEntry[];
  auditText(): string;
  close(): Promise<void>;
}

export function configRpc(builtin: StoredProfile[]): ConfigRpc {
  const dir = mkdtempSync(join(tmpdir(), 'cb-config-rpc-'));
  const profiles = new ProfileStore({ dataDir: dir, secretBox: noSecretBox('tests'), readOnly: builtin });
  const pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  const metrics = new MetricsHub({ pool });
  const auditFile = join(dir, 'audit.log');
  const audit = new AuditLog(auditFile);
  // Only the config domain is under test; the rest refuse loudly.
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  const dispatcher = new Dispatcher({ ...unused, ...configHandlers({ profiles, pool, metrics, audit }) } as Handlers, {
    onRefused: (r) => audit.append(refusalEntry(r)),
  });
  const frames: string[] = [];
  const clients = new Map<Role, RpcClient>();
  for (const role of ['analyst', 'ops'] as const) {
    const { server, client: end } = createMemoryWirePair();
    dispatcher.attach(server, { role, user: `${role}-user` });
    const client = new RpcClient((m) => end.send(m));
    end.onMessage((m) => {
      frames.push(JSON.stringify(m));
      client.receive(m);
    });
    clients.set(role, client);
  }
  const as = (role: Role) => clients.get(role) as RpcClient;
  const auditText = () => {
    try {
      return readFileSync(auditFile, 'utf8');
    } catch {
      return '';
    }
  };
  return {
    call: (role, name, input) => as(role).invoke(name, input),
    refused: (role, name, input) =>
      as(role)
        .invoke(name, input as never)
        .then(
          (out) => {
            throw new Error(`expected ${name} to be refused, got ${JSON.stringify(out)}`);
          },
          (e: unknown) => (e instanceof AppError ? e : Promise.reject(e)),
        ),
    frames: () => [...frames],
    audit: () => audit.tail(1000).reverse(),
    auditText,
    async close() {
      await metrics.shutdown();
      await pool.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
