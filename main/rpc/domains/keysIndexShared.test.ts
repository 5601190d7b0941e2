import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../app/contract';
import type { AppError } from '../../../app/errors';
import type { RpcClient } from '../../../app/rpcClient';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, eventually, useRedis } from '../../../testing/redis';
import { b64, followIndex, keysRpc, type KeysRpc } from './keysIndexTestKit';

const redis = useRedis();
let admin: Redis;
const RATE1 = 300;
const RATE2 = 200;
const USERS = 100;
const TOTAL = RATE1 + RATE2 + USERS;

beforeAll(async () => {
  admin = await adminClient(redis());
});
beforeEach(async () => {
  await admin.flushall();
  const p = admin.pipeline();
  for (let i = 0; i < RATE1; i++) p.set(`rate:10.1.${i}`, 'v');
  for (let i = 0; i < RATE2; i++) p.set(`rate:10.2.${i}`, 'v');
  for (let i = 0; i < USERS; i++) p.set(`user:${i}`, 'v');
  await p.exec();
});
afterAll(async () => {
  await closeAdmins();
});

const profile = () => ({ id: 'local', source: 'config' as const, spec: specFor(redis()) });
const kits: KeysRpc[] = [];
afterAll(async () => {
  await Promise.all(kits.map((k) => k.close()));
});
function kit(options: Parameters<typeof keysRpc>[1] = {}): KeysRpc {
  const k = keysRpc([profile()], options);
  kits.push(k);
  return k;
}

async function build(client: RpcClient, separator = ':'): Promise<void> {
  const { jobId } = await client.invoke('keys.index.start', { profileId: 'local', separator });
  const { events, error } = await followIndex(client, jobId);
  expect(error).toBeUndefined();
  expect(events.at(-1)?.kind).toBe('done');
}

const tree = (client: RpcClient, separator = ':', prefix = '') => client.invoke('keys.tree', { profileId: 'local', separator, prefix: b64(prefix) });

const refusal = (p: Promise<unknown>): Promise<AppError> =>
  p.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e as AppError,
  );

describe('one index per (profile, DB, separator), shared by every user', () => {
  it('an analyst reads the index an ops user built, and may start a build only where none exists', async () => {
    const k = kit({ tuning: { count: 10, pauseMs: 20 } });
    const ops = k.as('ops');
    const analyst = k.as('analyst');
    await build(ops);
    const seen = await tree(analyst);
    expect(seen.state).toMatchObject({ status: 'ready', complete: true, scanned: TOTAL });
    expect(seen.state.finishedAt).toBeGreaterThan(0);
    // A refresh of the shared index is for ops; the refusal says how old the index is.
    const refused = await refusal(analyst.invoke('keys.index.start', { profileId: 'local', separator: ':' }));
    expect(refused.code).toBe('FORBIDDEN');
    expect(refused.message).toMatch(/already has an index by this separator \(built \d+ s ago\): analysts use the shared index/);
    // Where none exists, an analyst's build is the first; while it runs, no second one replaces it.
    const { jobId } = await analyst.invoke('keys.index.start', { profileId: 'local', separator: '/' });
    const again = await refusal(analyst.invoke('keys.index.start', { profileId: 'local', separator: '/' }));
    expect(again.code).toBe('CONFLICT');
    expect(again.message).toMatch(/being built now/);
    expect((await tree(ops, '/')).state.jobId).toBe(jobId);
    await k.as('ops').invoke('keys.index.cancel', { jobId });
    // Ops may refresh it.
    await build(ops);
  });
});

describe('one memory budget for every index together', () => {
  it('builds with many separators stay within it: the oldest idle index goes first', async () => {
    const budget = 20 << 20;
    const k = kit({ budgetBytes: budget, idleMs: 0, role: 'ops' });
    const separators = [':', '/', '-', '.', '|', '_', '#', '@'];
    for (const sep of separators) {
      await build(k.client, sep);
      expect(k.indexes.held()).toBeLessThanOrEqual(budget);
      let sum = 0;
      for (const s of separators) sum += (await tree(k.client, s)).state.bytes;
      expect(sum).toBeLessThanOrEqual(budget);
    }
    // The last one built is there, complete with its names.
    expect((await tree(k.client, '@')).state).toMatchObject({ status: 'ready', names: 'indexed', scanned: TOTAL });
  });

  it('a new build is refused with the reason while every index is in use; a growing one keeps its counts past it', async () => {
    const budget = 20 << 20;
    const k = kit({ budgetBytes: budget, role: 'ops' });
    await build(k.client, ':');
    await build(k.client, '/');
    const refused = await refusal(k.client.invoke('keys.index.start', { profileId: 'local', separator: '-' }));
    expect(refused.code).toBe('RATE_LIMITED');
    expect(refused.message).toMatch(/hold \d+ MB of their 20 MB memory budget .*idle/);
    expect(k.indexes.held()).toBeLessThanOrEqual(budget);

    const small = kit({ budgetBytes: 12 << 20, role: 'ops' });
    await build(small.client, ':');
    await build(small.client, '/');
    const second = (await tree(small.client, '/')).state;
    expect(second).toMatchObject({ names: 'over-budget', complete: true, scanned: TOTAL });
    expect((await tree(small.client, '/', 'rate:')).nodes).toEqual([]);
    expect(small.indexes.held()).toBeLessThanOrEqual(12 << 20);
  });
});

type ActionEvent = StreamEvent<'keys.actions.progress'>;

async function bulkDelete(client: RpcClient, match: string): Promise<ActionEvent> {
  const { jobId } = await client.invoke('keys.actions.start', {
    profileId: 'local',
    selection: { match: b64(match) },
    action: { op: 'delete' },
    dryRun: false,
  });
  return new Promise((resolve, reject) => {
    const events: ActionEvent[] = [];
    client.subscribe(
      'keys.actions.progress',
      { jobId },
      {
        onEvents: (batch) => events.push(...batch),
        onEnd: (error) => {
          const last = events.at(-1);
          if (error !== undefined || last === undefined) reject(error ?? new Error('no outcome'));
          else resolve(last);
        },
      },
    );
  });
}

describe('after a bulk delete', () => {
  it('the tree and list counts lose the keys it removed, without a new scan; the state says what is stale meanwhile', async () => {
    const k = kit({ role: 'ops' });
    await build(k.client);
    const before = await tree(k.client);
    expect(before.nodes.find((n) => n.ref.b64 === b64('rate:'))?.count).toBe(RATE1 + RATE2);
    const startedAt = before.state.startedAt;
    const stale: string[] = [];
    const end = await bulkDelete(k.client, 'rate:10.1*');
    expect(end).toMatchObject({ kind: 'done', report: { acted: RATE1 } });
    expect(
      await eventually(async () => {
        const s = (await tree(k.client)).state;
        if (s.stale !== null) stale.push(s.stale);
        return !s.rechecking && s.stale === null;
      }, 20_000),
    ).toBe(true);
    const after = await tree(k.client);
    // The same index (no rebuild), its counts the DB's again.
    expect(after.state).toMatchObject({ startedAt, scanned: TOTAL - RATE1 });
    expect(after.nodes.find((n) => n.ref.b64 === b64('rate:'))?.count).toBe(RATE2);
    expect(after.nodes.find((n) => n.ref.b64 === b64('user:'))?.count).toBe(USERS);
    const gone = await k.client.invoke('keys.list', { profileId: 'local', match: b64('rate:10.1*'), limit: 50 });
    expect(gone).toMatchObject({ source: 'index', total: 0, keys: [] });
    const left = await k.client.invoke('keys.list', { profileId: 'local', match: b64('rate:*'), limit: 50 });
    expect(left.total).toBe(RATE2);
    for (const s of stale) expect(s).toMatch(/bulk delete of rate:10\.1\*/);
  });

  it('an index without its names says its counts under the glob are stale until a Refresh', async () => {
    const k = kit({ budgetBytes: 64 * 1024, role: 'ops' });
    await build(k.client);
    expect((await tree(k.client)).state.names).toBe('over-budget');
    await bulkDelete(k.client, 'rate:10.1*');
    expect(await eventually(async () => (await tree(k.client)).state.stale !== null, 10_000)).toBe(true);
    expect((await tree(k.client)).state.stale).toMatch(
      /bulk delete of rate:10\.1\* ran after this index was built: counts under rate:10\.1\* may include keys it removed; Refresh/,
    );
    await build(k.client);
    expect((await tree(k.client)).state).toMatchObject({ stale: null, scanned: TOTAL - RATE1 });
  });
});
