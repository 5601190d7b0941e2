import type { CallInput, CallOutput } from '../../../app/contract';
import type { Role } from '../../../app/define';
import { AppError } from '../../../app/errors';
import type { AuditEntry } from '../../core/audit/auditLog';
import { MetricsHub } from '../../core/metrics/metricsHub';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import { refusalEntry } from './auditTrail';
import { configHandlers } from './config';
import { roleClients, domainRpcBase } from './domainRpcTestKit';

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
  const base = domainRpcBase('cb-config-rpc-', builtin);
  const { profiles, pool, audit } = base;
  const metrics = new MetricsHub({ pool });
  const dispatcher = new Dispatcher(base.handlers(configHandlers({ profiles, pool, metrics, audit })), {
    onRefused: (r) => audit.append(refusalEntry(r)),
  });
  const frames: string[] = [];
  const as = roleClients(dispatcher, (m) => frames.push(JSON.stringify(m)));
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
    audit: base.auditEntries,
    auditText: () => base.auditBytes().toString('utf8'),
    async close() {
      await metrics.shutdown();
      await base.close();
    },
  };
}
