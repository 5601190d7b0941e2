import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contract, type Name, type StreamEvent } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import { cancelAllJobs, createJobs } from '../../core/jobKinds';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { Pool } from '../../core/pool/pool';
import { ProfileStore } from '../../core/pool/profileStore';
import type { StoredProfile } from '../../core/pool/types';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { createMemoryWirePair } from '../wireTestKit';
import { jobHandlers } from './jobs';
import { keysHandlers } from './keys';
import { IndexRegistry } from '../../core/keys/index/indexRegistry';
import type { BuildTuning } from '../../core/keys/index/buildIndex';

/** Tests only: the keys handlers behind a real dispatcher, an analyst's client. */
export interface KeysRpc {
  client: RpcClient;
  close(): Promise<void>;
}

export function keysRpc(readOnly: StoredProfile[], options: { budgetBytes?: number; tuning?: Partial<BuildTuning> } = {}): KeysRpc {
  const dir = mkdtempSync(join(tmpdir(), 'cb-keys-rpc-'));
  const profiles = new ProfileStore({ dataDir: dir, secretBox: noSecretBox('tests'), readOnly });
  const jobs = createJobs();
  const pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  // Only the keys entries are under test; the rest refuse loudly.
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  const indexes = new IndexRegistry(jobs.keysIndex, options);
  const handlers = { ...unused, ...keysHandlers({ profiles, pool, jobs }, indexes), ...jobHandlers(jobs) } as Handlers;
  const dispatcher = new Dispatcher(handlers, { streamIntervalMs: 10 });
  const { server, client: end } = createMemoryWirePair();
  dispatcher.attach(server, { role: 'analyst', user: 'analyst' });
  const client = new RpcClient((m) => end.send(m));
  end.onMessage((m) => client.receive(m));
  return {
    client,
    async close() {
      await cancelAllJobs(jobs);
      await pool.shutdown();
      rmSync(dir, { recursive: true, force: true });
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
