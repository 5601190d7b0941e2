import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Name } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import type { TrialEvent } from '../../../app/schemas/trials';
import { AuditLog } from '../../core/audit/auditLog';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { Pool } from '../../core/pool/pool';
import { ProfileStore } from '../../core/pool/profileStore';
import { scratchKeysIn } from '../../core/trials/trialTestKit';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { cancelAllJobs, createJobs } from '../../core/jobKinds';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { createMemoryWirePair } from '../wireTestKit';
import { jobHandlers } from './jobs';
import { trialHandlers } from './trials';

const redis = useRedis();
const dir = mkdtempSync(join(tmpdir(), 'cb-trials-rpc-'));
const jobs = createJobs();
const audit = new AuditLog(join(dir, 'audit.log'));
let pool: Pool;
let admin: Redis;
let client: RpcClient;

beforeAll(async () => {
  admin = await adminClient(redis());
  const profiles = new ProfileStore({
    dataDir: dir,
    secretBox: noSecretBox('tests'),
    definitionLocked: [{ id: 'local', source: 'config', spec: specFor(redis()) }],
  });
  pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  // Only the trials entries are under test; the rest refuse loudly.
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  const dispatcher = new Dispatcher({ ...unused, ...trialHandlers({ profiles, pool, jobs, audit }), ...jobHandlers(jobs) } as Handlers, {
    streamIntervalMs: 10,
  });
  const { server, client: end } = createMemoryWirePair();
  dispatcher.attach(server, { role: 'ops', user: 'alice' });
  client = new RpcClient((m) => end.send(m));
  end.onMessage((m) => client.receive(m));
});
afterAll(async () => {
  await cancelAllJobs(jobs);
  await pool.shutdown();
  await closeAdmins();
  rmSync(dir, { recursive: true, force: true });
});

/** Subscribes to a trial's progress; `events` fills as batches come, `ended` resolves when the server ends the stream. */
function follow(jobId: string): { events: TrialEvent[]; ended: Promise<AppError | undefined> } {
  const events: TrialEvent[] = [];
  const ended = new Promise<AppError | undefined>((resolve) => {
    client.subscribe('trials.progress', { jobId }, { onEvents: (batch) => events.push(...batch), onEnd: resolve });
  });
  return { events, ended };
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 10));
}

describe('trials over the contract', () => {
  it('trials.start, then trials.progress streams the run to its report and ends; the audit log has both ends', async () => {
    const { jobId } = await client.invoke('trials.start', { profileId: 'local', trial: 'pipeline', n: 300, sweep: false });
    const run = follow(jobId);
    expect(await run.ended).toBeUndefined();
    const kinds = run.events.map((e) => e.kind);
    expect(kinds[0]).toBe('started');
    expect(kinds).toContain('progress');
    expect(kinds.filter((k) => k === 'variant')).toHaveLength(4);
    expect(run.events.at(-1)).toMatchObject({ kind: 'done', report: { trial: 'pipeline', dbs: [0], params: { n: 300 } } });
    const entries = audit.tail(10).filter((e) => e.action === 'trial.pipeline');
    expect(entries.map((e) => e.outcome)).toEqual(['ok', 'started']);
    expect(entries[0]).toMatchObject({ user: 'alice', target: `127.0.0.1:${redis().port}` });
  });

  it('refuses a second trial on the same server with CONFLICT; a cancel ends the first, removes its keys and frees the server', async () => {
    const { jobId } = await client.invoke('trials.start', { profileId: 'local', trial: 'load', n: 10_000_000, clients: 10 });
    const run = follow(jobId);
    await until(() => run.events.some((e) => e.kind === 'progress' && e.done > 0));
    await expect(client.invoke('trials.start', { profileId: 'local', trial: 'multiplex', n: 10 })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining(jobId),
    });
    expect(await client.invoke('trials.cancel', { jobId })).toEqual({ cancelled: true });
    expect(await run.ended).toBeUndefined();
    expect(run.events.at(-1)).toMatchObject({ kind: 'cancelled', report: { trial: 'load' } });
    expect(await scratchKeysIn(admin, 0)).toEqual([]);
    expect(await client.invoke('trials.cancel', { jobId })).toEqual({ cancelled: false });

    const next = await client.invoke('trials.start', { profileId: 'local', trial: 'multiplex', n: 10 });
    const after = follow(next.jobId);
    await after.ended;
    expect(after.events.at(-1)).toMatchObject({ kind: 'done', report: { trial: 'multiplex', dbs: [0, 1, 2, 3, 4] } });
  });

  it("a refused run ends its stream with the failure naming the option, on the DB asked for, else the profile's", async () => {
    await admin.select(5);
    await admin.set('somebody:else', '1');
    const { jobId } = await client.invoke('trials.start', { profileId: 'local', db: 5, trial: 'pipeline', n: 10 });
    const run = follow(jobId);
    await run.ended;
    expect(run.events.at(-1)).toMatchObject({ kind: 'failed', error: { code: 'VALIDATION', field: 'confirmNonEmpty' } });
    expect(audit.tail(1)[0]).toMatchObject({ action: 'trial.pipeline', outcome: 'failed', detail: expect.stringMatching(/^db 5 /) });
  });

  it('refuses an unknown profile, an unknown trial and a bad option by name', async () => {
    await expect(client.invoke('trials.start', { profileId: 'ghost', trial: 'pipeline' })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'profileId' });
    await expect(client.invoke('trials.cancel', { jobId: 'trial_nothere' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(client.invoke('trials.start', { profileId: 'local', trial: 'load', clients: 0 })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'clients',
    });
  });
});
