import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract, type Name, type StreamEvent, type StreamInput } from '../../../app/contract';
import type { Role } from '../../../app/define';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import { AudienceQueryLinks } from '../../core/audience/queryLinks';
import { AuditLog } from '../../core/audit/auditLog';
import { cancelAllJobs, createJobs } from '../../core/jobKinds';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { Pool } from '../../core/pool/pool';
import { ProfileStore } from '../../core/pool/profileStore';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { createMemoryWirePair } from '../wireTestKit';
import { audienceHandlers } from './audience';
import { jobHandlers } from './jobs';

/** Tests only: the audience handlers behind a real dispatcher, one in-memory client per role. */
export interface AudienceRpc {
  as(role: Role): RpcClient;
  /** The data dir: history file, audit log. */
  dir: string;
  historyFile: string;
  close(): Promise<void>;
}

export function audienceRpc(readOnly: StoredProfile[]): AudienceRpc {
  const dir = mkdtempSync(join(tmpdir(), 'cb-audience-rpc-'));
  const historyFile = join(dir, 'audience-history.json');
  const profiles = new ProfileStore({ dataDir: dir, secretBox: noSecretBox('tests'), readOnly });
  const jobs = createJobs({ audienceHistoryFile: historyFile });
  const audience = { queries: new AudienceQueryLinks() };
  // Only the audience entries are under test; the rest refuse loudly.
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  const audit = new AuditLog(join(dir, 'audit.log'));
  // For a cluster profile's masters (which one serves the hash tag's slot).
  const pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  const dispatcher = new Dispatcher({ ...unused, ...audienceHandlers({ profiles, pool, audience, audit, jobs }), ...jobHandlers(jobs) } as Handlers, { streamIntervalMs: 10 });
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
      await pool.shutdown();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A job stream's events until the server ends it (trials and demo loads end on their final event). */
export function follow<N extends 'audience.progress' | 'audience.demoProgress'>(client: RpcClient, name: N, jobId: string): Promise<{ events: StreamEvent<N>[]; error: AppError | undefined }> {
  return new Promise((resolve) => {
    const events: StreamEvent<N>[] = [];
    client.subscribe(name, { jobId } as StreamInput<N>, { onEvents: (batch) => events.push(...batch), onEnd: (error) => resolve({ events, error }) });
  });
}
