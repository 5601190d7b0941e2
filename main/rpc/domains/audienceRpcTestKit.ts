import { join } from 'node:path';
import type { StreamEvent, StreamInput } from '../../../app/contract';
import type { Role } from '../../../app/define';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import { AudienceQueryLinks } from '../../core/audience/queryLinks';
import { cancelAllJobs, createJobs } from '../../core/jobKinds';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import { createMemoryWirePair } from '../wireTestKit';
import { audienceHandlers } from './audience';
import { jobHandlers } from './jobs';
import { domainRpcBase } from './domainRpcTestKit';

/** Tests only: the audience handlers behind a real dispatcher, one in-memory client per role. */
export interface AudienceRpc {
  as(role: Role): RpcClient;
  /** The data dir: history file, audit log. */
  dir: string;
  historyFile: string;
  close(): Promise<void>;
}

export function audienceRpc(configProfiles: StoredProfile[]): AudienceRpc {
  const base = domainRpcBase('cb-audience-rpc-', configProfiles);
  // The pool is for a cluster profile's masters (which one serves the hash tag's slot).
  const { dir, profiles, pool, audit } = base;
  const historyFile = join(dir, 'audience-history.json');
  const jobs = createJobs({ audienceHistoryFile: historyFile });
  const audience = { queries: new AudienceQueryLinks() };
  const dispatcher = new Dispatcher(base.handlers({ ...audienceHandlers({ profiles, pool, audience, audit, jobs }), ...jobHandlers(jobs) }), {
    streamIntervalMs: 10,
  });
  const clients = new Map<Role, RpcClient>();
  for (const role of ['analyst', 'ops'] as const) {
    const { server, client: end } = createMemoryWirePair();
    dispatcher.attach(server, { role, user: role });
    const client = new RpcClient((m) => end.send(m));
    end.onMessage((m) => client.receive(m));
    clients.set(role, client);
  }
  return {
    as: (role) => clients.get(role) as RpcClient,
    dir,
    historyFile,
    async close() {
      await Promise.all([cancelAllJobs(jobs), audience.queries.closeAll()]);
      await base.close();
    },
  };
}

/** A job stream's events until the server ends it (trials and demo loads end on their final event). */
export function follow<N extends 'audience.progress' | 'audience.demoProgress'>(
  client: RpcClient,
  name: N,
  jobId: string,
): Promise<{ events: StreamEvent<N>[]; error: AppError | undefined }> {
  return new Promise((resolve) => {
    const events: StreamEvent<N>[] = [];
    client.subscribe(name, { jobId } as StreamInput<N>, { onEvents: (batch) => events.push(...batch), onEnd: (error) => resolve({ events, error }) });
  });
}
