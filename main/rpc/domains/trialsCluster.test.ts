import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract, type Name } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import { RpcClient } from '../../../app/rpcClient';
import type { TrialEvent, TrialReport } from '../../../app/schemas/trials';
import { AuditLog } from '../../core/audit/auditLog';
import { slotOf } from '../../core/resp/slot';
import { parseClusterNodes } from '../../core/pool/clusterNodes';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { Pool } from '../../core/pool/pool';
import { ProfileStore } from '../../core/pool/profileStore';
import { scratchKeysIn } from '../../core/trials/trialTestKit';
import { runCli } from '../../../testing/cli';
import { useCluster } from '../../../testing/cluster';
import { specFor } from '../../../testing/profiles';
import { cancelAllJobs, createJobs } from '../../core/jobKinds';
import { Dispatcher } from '../dispatcher';
import type { Handlers } from '../handlers';
import { createMemoryWirePair } from '../wireTestKit';
import { jobHandlers } from './jobs';
import { trialHandlers } from './trials';

const cluster = useCluster();
const dir = mkdtempSync(join(tmpdir(), 'cb-trials-cluster-'));
const jobs = createJobs();
const audit = new AuditLog(join(dir, 'audit.log'));
let pool: Pool;
let client: RpcClient;
/** A plain client on each master, by "host:port", to look at its keys from the side. */
const masters = new Map<string, Redis>();

beforeAll(async () => {
  const [host = '127.0.0.1', port] = (cluster().addresses[0] ?? '').split(':');
  const seed = { host, port: Number(port) };
  const profiles = new ProfileStore({
    dataDir: dir,
    secretBox: noSecretBox('tests'),
    definitionLocked: [{ id: 'shards', source: 'config', spec: specFor(seed, { name: 'shards', topology: { kind: 'cluster', seeds: [seed] } }) }],
  });
  pool = new Pool({ resolve: (id) => profiles.get(id), list: () => profiles.list() });
  const unused = Object.fromEntries((Object.keys(contract) as Name[]).map((n) => [n, () => Promise.reject(new Error(`${n} is not under test`))]));
  const dispatcher = new Dispatcher({ ...unused, ...trialHandlers({ profiles, pool, jobs, audit }), ...jobHandlers(jobs) } as Handlers, {
    streamIntervalMs: 10,
  });
  const { server, client: end } = createMemoryWirePair();
  dispatcher.attach(server, { role: 'ops', user: 'alice' });
  client = new RpcClient((m) => end.send(m));
  end.onMessage((m) => client.receive(m));
  for (const m of cluster().masters) masters.set(`${m.host}:${m.port}`, new Redis({ host: m.host, port: m.port }));
});
afterAll(async () => {
  await cancelAllJobs(jobs);
  await pool.shutdown();
  for (const r of masters.values()) r.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

/** Follows a run to its end; `seen` gets every scratch key found on each master while it ran. */
async function runToEnd(jobId: string): Promise<{ events: TrialEvent[]; error: AppError | undefined; seen: Map<string, Set<string>> }> {
  const events: TrialEvent[] = [];
  const seen = new Map<string, Set<string>>();
  let over = false;
  const ended = new Promise<AppError | undefined>((resolve) => {
    client.subscribe('trials.progress', { jobId }, { onEvents: (batch) => events.push(...batch), onEnd: resolve });
  }).finally(() => (over = true));
  while (!over) {
    for (const [address, r] of masters) {
      for (const k of await scratchKeysIn(r, 0)) seen.set(address, (seen.get(address) ?? new Set()).add(k));
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return { events, error: await ended, seen };
}

/** The master whose slots hold `slot`, as CLUSTER NODES says. */
async function ownerOf(slot: number): Promise<string | undefined> {
  const [any] = masters.values();
  const nodes = parseClusterNodes(String(await any?.call('CLUSTER', 'NODES')));
  return nodes.find((n) => n.role === 'master' && (n.slots ?? []).some(([a, b]) => slot >= a && slot <= b))?.address;
}

/** Every master's scratch keys: none once a run has ended. */
async function leftovers(): Promise<string[]> {
  return (await Promise.all([...masters.values()].map((r) => scratchKeysIn(r, 0)))).flat();
}

function reportOf(events: TrialEvent[]): TrialReport {
  const last = events.at(-1);
  if (last?.kind !== 'done') throw new Error(`expected done, got ${JSON.stringify(last)}`);
  return last.report;
}

/** Every key seen carries one hash tag, and that tag's slot is served by `address`. */
async function expectOneTagOn(seen: Map<string, Set<string>>, address: string): Promise<void> {
  expect([...seen.keys()]).toEqual([address]);
  const keys = [...(seen.get(address) ?? [])];
  const tags = new Set(keys.map((k) => /^cacheboard:trial:\{([A-Za-z0-9_-]+)\}:/.exec(k)?.[1]));
  expect(tags.size).toBe(1);
  const [tag = ''] = tags;
  expect(await ownerOf(slotOf(`{${tag}}`))).toBe(address);
}

describe('pipeline trials on a Redis Cluster', () => {
  it('pipeline runs on the master serving its hash tag: every scratch key lands there, and is removed', async () => {
    const { jobId } = await client.invoke('trials.start', { profileId: 'shards', trial: 'pipeline', n: 5_000, sweepN: 500 });
    const run = await runToEnd(jobId);
    expect(run.error).toBeUndefined();
    const report = reportOf(run.events);
    expect([...masters.keys()]).toContain(report.address);
    // Each variant's keys are counted by SCAN on that master alone: all N are there.
    expect(report.variants.map((v) => [v.variant, v.keys, v.errors])).toEqual(['plain', 'pipelined', 'multi', 'pipelinedMulti'].map((v) => [v, 5_000, 0]));
    expect(report.sweep).toHaveLength(7);
    await expectOneTagOn(run.seen, report.address);
    expect(await leftovers()).toEqual([]);
  });

  it("load's random keys carry the tag too: no MOVED error reply, all on one master, removed", async () => {
    const { jobId } = await client.invoke('trials.start', { profileId: 'shards', trial: 'load', n: 20_000, clients: 5, keyspace: 1_000 });
    const run = await runToEnd(jobId);
    expect(run.error).toBeUndefined();
    const report = reportOf(run.events);
    expect(report.variants.map((v) => [v.variant, v.ops, v.errors])).toEqual([
      ['set', 20_000, 0],
      ['get', 20_000, 0],
    ]);
    expect(report.variants[0]?.keys).toBeGreaterThan(900);
    await expectOneTagOn(run.seen, report.address);
    expect(await leftovers()).toEqual([]);
  });

  it('multiplex is refused on the trial field, saying a cluster has only DB 0; another DB on the db field', async () => {
    await expect(client.invoke('trials.start', { profileId: 'shards', trial: 'multiplex' })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'trial',
      message: expect.stringContaining('a Redis Cluster has only DB 0 (SELECT is refused in cluster mode)'),
    });
    await expect(client.invoke('trials.start', { profileId: 'shards', trial: 'pipeline', db: 3 })).rejects.toMatchObject({ code: 'VALIDATION', field: 'db' });
  });

  it('cacheboard trials pipeline --cluster runs on one master and prints its address; multiplex says why not', async () => {
    const [seed = ''] = cluster().addresses;
    const ok = await runCli(['trials', 'pipeline', '--cluster', '--url', `redis://${seed}`, '--n', '500', '--no-sweep', '--json']);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    const json = JSON.parse(ok.out) as { outcome: string; address: string; variants: Record<string, { errors: number }> };
    expect(json.outcome).toBe('done');
    expect([...masters.keys()]).toContain(json.address);
    expect(Object.values(json.variants).map((v) => v.errors)).toEqual([0, 0, 0, 0]);
    expect(await leftovers()).toEqual([]);

    const refused = await runCli(['trials', 'multiplex', '--cluster', '--url', `redis://${seed}`, '--json']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/^cacheboard: The multiplex trial .* a Redis Cluster has only DB 0/);
    expect(JSON.parse(refused.out)).toMatchObject({ error: { code: 'VALIDATION' } });
  });
});
