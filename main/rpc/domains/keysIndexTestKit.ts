import type { StreamEvent } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import { cancelAllJobs, createJobs } from '../../core/jobKinds';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import { createMemoryWirePair } from '../wireTestKit';
import { jobHandlers } from './jobs';
import { keysHandlers } from './keys';
import { domainRpcBase } from './domainRpcTestKit';
import { IndexRegistry } from '../../core/keys/index/indexRegistry';
import type { BuildTuning } from '../../core/keys/index/buildIndex';

/** Tests only: the keys handlers behind a real dispatcher, an analyst's client. */
export interface KeysRpc {
  client: RpcClient;
  close(): Promise<void>;
}

export function keysRpc(readOnly: StoredProfile[], options: { budgetBytes?: number; tuning?: Partial<BuildTuning> } = {}): KeysRpc {
  const base = domainRpcBase('cb-keys-rpc-', readOnly);
  const { profiles, pool, audit } = base;
  const jobs = createJobs();
  const indexes = new IndexRegistry(jobs.keysIndex, options);
  const handlers = base.handlers({ ...keysHandlers({ profiles, pool, jobs, audit }, indexes), ...jobHandlers(jobs) });
  const dispatcher = new Dispatcher(handlers, { streamIntervalMs: 10 });
  const { server, client: end } = createMemoryWirePair();
  dispatcher.attach(server, { role: 'analyst', user: 'analyst' });
  const client = new RpcClient((m) => end.send(m));
  end.onMessage((m) => client.receive(m));
  return {
    client,
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
