import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Name } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import type { SamplingEvent } from '../../../app/schemas/sampling';
import { cancelAllJobs, createJobs } from '../../core/jobKinds';
import { Pool } from '../../core/pool/pool';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { ProfileStore } from '../../core/pool/profileStore';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { createMemoryWirePair } from '../wireTestKit';
import { jobHandlers } from './jobs';
import { samplingHandlers } from './sampling';

const redis = useRedis();
const dir = mkdtempSync(join(tmpdir(), 'cb-sampling-rpc-'));
const jobs = createJobs();
let client: RpcClient;
let pool: Pool;

beforeAll(async () => {
  const admin = await adminClient(redis());
  const p = admin.pipeline();
  for (let i = 0; i < 2_000; i++) p.set(`a:${i}`, 'v');
  await p.exec();
  await admin.select(3);
  await admin.hset('in:db3', 'f', 'v');
  const profiles = new ProfileStore({
    dataDir: dir,
    secretBox: noSecretBox('tests'),
    definitionLocked: [{ id: 'local', source: 'config', spec: specFor(redis()) }],
  });
  pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  // Only the sampling entries are under test; the rest refuse loudly.
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  const dispatcher = new Dispatcher({ ...unused, ...samplingHandlers({ profiles, pool, jobs }), ...jobHandlers(jobs) } as Handlers, { streamIntervalMs: 10 });
  const { server, client: end } = createMemoryWirePair();
  dispatcher.attach(server, { role: 'analyst' });
  client = new RpcClient((m) => end.send(m));
  end.onMessage((m) => client.receive(m));
});
afterAll(async () => {
  await cancelAllJobs(jobs);
  await pool.shutdown();
  await closeAdmins();
  rmSync(dir, { recursive: true, force: true });
});

/** Subscribes to a run's progress and resolves with every event once the server ends the stream. */
function follow(jobId: string): Promise<{ events: SamplingEvent[]; error: AppError | undefined }> {
  return new Promise((resolve) => {
    const events: SamplingEvent[] = [];
    client.subscribe('sampling.progress', { jobId }, { onEvents: (batch) => events.push(...batch), onEnd: (error) => resolve({ events, error }) });
  });
}

describe('sampling over the contract', () => {
  it('an analyst starts a census; a subscriber that comes after the end still gets the run, then the stream ends', async () => {
    const { jobId } = await client.invoke('sampling.start', { profileId: 'local', method: 'census' });
    const first = await follow(jobId);
    expect(first.error).toBeUndefined();
    expect(first.events.at(-1)?.kind).toBe('done');
    // The run is over: this one is told the whole story from the replayed history.
    const { events, error } = await follow(jobId);
    expect(error).toBeUndefined();
    expect(events[0]).toMatchObject({ kind: 'started', method: 'census', db: 0, dbsize: 2_000 });
    expect(events.at(-1)).toMatchObject({ kind: 'done', report: { keysExamined: 2_000, types: [{ type: 'string', count: 2_000 }] } });
    expect(await client.invoke('sampling.cancel', { jobId })).toEqual({ cancelled: false });
  });

  it("samples the DB it is given, else the profile's", async () => {
    const { jobId } = await client.invoke('sampling.start', { profileId: 'local', db: 3, samples: 50 });
    const { events } = await follow(jobId);
    // One key, 50 draws asked for: every key is measured instead (a census), and the report says so.
    expect(events.at(-1)).toMatchObject({
      kind: 'done',
      report: {
        method: 'census',
        db: 3,
        dbsize: 1,
        keysExamined: 1,
        types: [{ type: 'hash', count: 1 }],
        warnings: [expect.stringMatching(/a census\) instead of a sample/)],
      },
    });
  });

  it('refuses an unknown profile and an unknown run by name', async () => {
    await expect(client.invoke('sampling.start', { profileId: 'ghost' })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'profileId' });
    await expect(client.invoke('sampling.cancel', { jobId: 'sample_nothere' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(client.invoke('sampling.start', { profileId: 'local', match: 'x'.repeat(300) })).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});
