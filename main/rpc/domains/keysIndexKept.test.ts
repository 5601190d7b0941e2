import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../../app/contract';
import type { RpcClient } from '../../../app/rpcClient';
import { seenOf, type Seen } from '../../../app/schemas/keys';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, eventually, useRedis } from '../../../testing/redis';
import { b64, followIndex, keysRpc, type KeysRpc } from './keysIndexTestKit';

const redis = useRedis();
let admin: Redis;
const ORDERS = 400;
const USERS = 100;
const TOTAL = ORDERS + USERS;

beforeAll(async () => {
  admin = await adminClient(redis());
});
beforeEach(async () => {
  await admin.flushall();
  const p = admin.pipeline();
  for (let i = 0; i < ORDERS; i++) p.set(`order:${i % 4}:${i}`, 'v');
  for (let i = 0; i < USERS; i++) p.set(`user:${i}`, 'v');
  await p.exec();
});
const kits: KeysRpc[] = [];
afterAll(async () => {
  await Promise.all(kits.map((k) => k.close()));
  await closeAdmins();
});
function kit(options: Parameters<typeof keysRpc>[1] = {}): KeysRpc {
  const k = keysRpc([{ id: 'local', source: 'config' as const, spec: specFor(redis()) }], options);
  kits.push(k);
  return k;
}

/** SCAN calls the server has run, from anyone (INFO commandstats). */
async function scans(): Promise<number> {
  const info = await admin.info('commandstats');
  return Number(/cmdstat_scan:calls=(\d+)/.exec(info)?.[1] ?? 0);
}

const open = (client: RpcClient) => client.invoke('keys.index.open', { profileId: 'local' });
const tree = (client: RpcClient, prefix = '') => client.invoke('keys.tree', { profileId: 'local', prefix: b64(prefix) });
const count = async (client: RpcClient, folder: string) => (await tree(client)).nodes.find((n) => n.ref.b64 === b64(folder))?.count;
const listed = async (client: RpcClient, match: string) =>
  (await client.invoke('keys.list', { profileId: 'local', match: b64(match), limit: 1000 })).keys.map((k) => Buffer.from(k.key.b64, 'base64').toString());

/** Opens the page: the first time a scan starts, and is followed to its end. */
async function openAndBuild(client: RpcClient): Promise<void> {
  const first = await open(client);
  expect(first.started).toBe(true);
  const { events, error } = await followIndex(client, first.jobId as string);
  expect(error).toBeUndefined();
  expect(events.at(-1)?.kind).toBe('done');
}

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

describe('the kept index', () => {
  it('is reused when the page opens again: no SCAN, the same build, its age and max age stated', async () => {
    const k = kit();
    await openAndBuild(k.client);
    const built = (await tree(k.client)).state;
    expect(built).toMatchObject({ status: 'ready', complete: true, scanned: TOTAL, expired: false, maxAgeMs: 15 * 60_000 });
    const before = await scans();
    const again = await open(k.client);
    expect(again).toMatchObject({
      started: false,
      jobId: null,
      state: { status: 'ready', scanned: TOTAL, startedAt: built.startedAt, finishedAt: built.finishedAt },
    });
    // An analyst opening the same connection's page reuses it too.
    expect((await open(k.as('analyst'))).started).toBe(false);
    expect(await scans()).toBe(before);
  });

  it('a bulk delete through the key-actions path takes exactly its keys out, without a SCAN of its own', async () => {
    const k = kit({ role: 'ops' });
    await openAndBuild(k.client);
    const end = await bulkDelete(k.client, 'order:1:*');
    expect(end).toMatchObject({ kind: 'done', report: { acted: ORDERS / 4 } });
    // The action's own SCANs are done; the index's update adds none.
    const afterAction = await scans();
    expect(await eventually(async () => (await tree(k.client)).state.rechecking === false, 20_000)).toBe(true);
    const s = (await tree(k.client)).state;
    expect(s).toMatchObject({ scanned: TOTAL - ORDERS / 4, followed: ORDERS / 4, stale: null });
    expect(await count(k.client, 'order:')).toBe(ORDERS - ORDERS / 4);
    expect(await listed(k.client, 'order:1:*')).toEqual([]);
    expect((await listed(k.client, 'order:2:*')).length).toBe(ORDERS / 4);
    expect(await scans()).toBe(afterAction);
    expect((await open(k.client)).started).toBe(false);
  });

  it('key edits update it from their own results: a create adds, a rename moves, a delete removes; no SCAN', async () => {
    const k = kit({ role: 'ops' });
    await openAndBuild(k.client);
    const before = await scans();
    await k.client.invoke('keys.edit', { profileId: 'local', key: b64('order:9:new'), edit: { op: 'create', type: 'string', value: b64('x') } });
    expect(await count(k.client, 'order:')).toBe(ORDERS + 1);
    expect(await listed(k.client, 'order:9:*')).toEqual(['order:9:new']);
    const seen = seenOf(await k.client.invoke('keys.get', { profileId: 'local', key: b64('user:1') })) as Seen;
    await k.client.invoke('keys.edit', { profileId: 'local', key: b64('user:1'), edit: { op: 'rename', to: b64('admin:1'), seen } });
    expect(await count(k.client, 'user:')).toBe(USERS - 1);
    expect(await count(k.client, 'admin:')).toBe(1);
    const seen2 = seenOf(await k.client.invoke('keys.get', { profileId: 'local', key: b64('order:0:0') })) as Seen;
    await k.client.invoke('keys.edit', { profileId: 'local', key: b64('order:0:0'), edit: { op: 'delete', seen: seen2 } });
    expect((await listed(k.client, 'order:0:*')).includes('order:0:0')).toBe(false);
    const s = (await tree(k.client)).state;
    expect(s).toMatchObject({ scanned: TOTAL, followed: 4, stale: null });
    expect(await scans()).toBe(before);
  });

  it('past its stated age, opening the page scans again (the clock moved on, not waited for)', async () => {
    let skew = 0;
    const k = kit({ maxAgeMs: 5 * 60_000, now: () => Date.now() + skew });
    await openAndBuild(k.client);
    expect((await open(k.client)).started).toBe(false);
    skew = 4 * 60_000;
    expect((await tree(k.client)).state).toMatchObject({ expired: false, maxAgeMs: 5 * 60_000 });
    expect((await open(k.client)).started).toBe(false);
    skew = 6 * 60_000;
    expect((await tree(k.client)).state.expired).toBe(true);
    await admin.set('user:late', 'v');
    const before = await scans();
    // An analyst's open re-scans too: the age rule is the server's, not a refresh it asked for.
    const again = await open(k.client);
    expect(again.started).toBe(true);
    const { events } = await followIndex(k.client, again.jobId as string);
    expect(events.at(-1)).toMatchObject({ kind: 'done', state: { scanned: TOTAL + 1 } });
    expect(await scans()).toBeGreaterThan(before);
    skew = 0;
    expect((await open(k.client)).started).toBe(false);
  });
});
