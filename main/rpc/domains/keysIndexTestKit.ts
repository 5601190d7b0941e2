import type { StreamEvent } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import type { RpcClient } from '../../../app/rpcClient';
import { cancelAllJobs, createJobs } from '../../core/jobKinds';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import { jobHandlers } from './jobs';
import { keysHandlers } from './keys';
import { domainRpcBase, roleClients } from './domainRpcTestKit';
import { keyActionHandlers } from './keyActions';
import { IndexRegistry, type RegistryOptions } from '../../core/keys/index/indexRegistry';
import type { Role } from '../../../app/define';

/** Tests only: the keys handlers (and bulk actions, on the same indexes) behind a real dispatcher, an analyst's client (or an ops user's). */
export interface KeysRpc {
  client: RpcClient;
  /** A client of either role on the same dispatcher and indexes. */
  as(role: Role): RpcClient;
  indexes: IndexRegistry;
  close(): Promise<void>;
}

export function keysRpc(configProfiles: StoredProfile[], options: RegistryOptions & { role?: Role } = {}): KeysRpc {
  const base = domainRpcBase('cb-keys-rpc-', configProfiles);
  const { profiles, pool, audit } = base;
  const jobs = createJobs();
  const indexes = new IndexRegistry(jobs.keysIndex, options);
  const core = { profiles, pool, jobs, audit };
  const handlers = base.handlers({ ...keysHandlers(core, indexes), ...keyActionHandlers(core, undefined, {}, indexes), ...jobHandlers(jobs) });
  const dispatcher = new Dispatcher(handlers, { streamIntervalMs: 10 });
  const as = roleClients(dispatcher);
  return {
    client: as(options.role ?? 'analyst'),
    as,
    indexes,
    async close() {
      await cancelAllJobs(jobs);
      await base.close();
    },
  };
}

type IndexEvent = StreamEvent<'keys.index.progress'>;

/** An index build's events until the server ends the stream. */
export function followIndex(client: RpcClient, jobId: string): Promise<{ events: IndexEvent[]; error: AppError | undefined }> {
  return new Promise((resolve) => {
    const events: IndexEvent[] = [];
    client.subscribe('keys.index.progress', { jobId }, { onEvents: (batch) => events.push(...batch), onEnd: (error) => resolve({ events, error }) });
  });
}

export const b64 = (s: string | Buffer): string => (typeof s === 'string' ? Buffer.from(s, 'latin1') : s).toString('base64');
