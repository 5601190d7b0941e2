import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientRow } from '../../../app/schemas/clients';
import { namedSocket } from '../../../testing/rawClients';
import { readmeAclLine } from '../../../testing/readmeAcl';
import { adminClient, closeAdmins, eventually, type RedisProcess } from '../../../testing/redis';
import { startReplicaSet, type ReplicaSet } from '../../../testing/replication';
import { specFor } from '../../../testing/profiles';
import { clientsRpc, type ClientsRpc, type NodeRows } from './clientsRpcTestKit';

const ANALYST_PW = 'analyst-Secret-4417';
const HOSTILE = '<img/src=x/onerror=alert(1)>';
let set: ReplicaSet;
let rpc: ClientsRpc;
let admin: Redis;
const extra: Redis[] = [];
const at = (p: RedisProcess) => `${p.host}:${p.port}`;
const replica = () => set.replicas[0] as RedisProcess;

beforeAll(async () => {
  set = await startReplicaSet({ replicas: 1 });
  admin = await adminClient(set.master);
  // ACL SETUSER is not replicated: the analyst user is made on each server.
  for (const server of [set.master, ...set.replicas]) await (await adminClient(server)).call('ACL', 'SETUSER', ...readmeAclLine(ANALYST_PW));
  const spec = specFor(set.master, { name: 'Replicated' });
  rpc = clientsRpc([
    { id: 'rs', source: 'config', spec, analyst: { username: 'cb-analyst', password: ANALYST_PW } },
    { id: 'demo', source: 'embedded', spec: { ...spec, name: 'Local (embedded)' } },
  ]);
}, 30_000);
afterAll(async () => {
  for (const r of extra) r.disconnect();
  await rpc.close();
  await closeAdmins();
  await set.stop();
});

/** A client of the master's, named, for a test to find (and kill) in the list. */
async function named(name: string, server: RedisProcess = set.master): Promise<Redis> {
  const r = new Redis({ host: server.host, port: server.port, connectionName: name, lazyConnect: true, retryStrategy: () => null });
  await r.connect();
  extra.push(r);
  return r;
}

const node = (list: { nodes: NodeRows[] }, p: RedisProcess) => list.nodes.find((n) => n.address === at(p));
const byName = (n: NodeRows | undefined, name: string): ClientRow | undefined => n?.clients.find((c) => c.name === name);

describe('clients.list', () => {
  it('lists every node of a replicated profile: the replica link on each side, the limits, ours marked, hostile names as the text they are', async () => {
    await named(HOSTILE);
    await named('back\\slash');
    const list = await rpc.list('analyst', 'rs');
    expect(list.nodes.map((n) => [n.address, n.role])).toEqual([
      [at(set.master), 'master'],
      [at(replica()), 'replica'],
    ]);
    const master = node(list, set.master);
    const onReplica = node(list, replica());
    // The replica's link: flag S on the master, M on the replica.
    expect(master?.clients.filter((c) => c.kind === 'replica')).toHaveLength(1);
    expect(onReplica?.clients.filter((c) => c.kind === 'master')).toHaveLength(1);
    expect(byName(master, HOSTILE)?.name).toBe(HOSTILE);
    expect(byName(master, 'back\\\\slash')).toBeDefined();
    // An analyst lists as the analyst ACL user (the README's line), which may not run CONFIG: said once, highlight skipped.
    expect(master?.clients.find((c) => c.cmd === 'client|list' && c.user === 'cb-analyst')?.marks).toContain('ours');
    expect(master?.limits).toBeUndefined();
    expect(master?.limitsNote).toMatch(/CONFIG GET client-output-buffer-limit was refused on .*NOPERM/);
    // Ops read them; the admin's own connection is no connection of ours.
    const ops = await rpc.list('ops', 'rs');
    expect(node(ops, set.master)?.limits?.replica.hardBytes).toBe(256 * 1024 * 1024);
    expect(byName(node(ops, set.master), 'test-admin')?.marks).toEqual([]);
    const totals = node(ops, set.master)?.totals;
    expect(totals?.clients).toBe(node(ops, set.master)?.clients.length);
    expect(totals?.byName.find((c) => c.name === HOSTILE)?.count).toBe(1);
  });

  it('highlights blocked, MONITOR, subscribed and long-idle clients, and output buffers near their limit', async () => {
    // Set before MONITOR starts: the watcher is not sent the 8 MiB value.
    await admin.set('big', Buffer.alloc(8 << 20, 'x'));
    const blocker = await named('blocker');
    void blocker.blpop('never:comes', 0).catch(() => undefined);
    // ioredis' monitor() opens a second connection of the same name: a raw one is one client.
    const watcher = await namedSocket(set.master, 'watcher');
    watcher.write('MONITOR\r\n');
    const sub = await named('subscriber');
    await sub.subscribe('news');
    const idle = await named('sleeper');
    // A client that asks for 8 MiB values and reads none of them: its output buffer grows.
    const greedy = await namedSocket(set.master, 'greedy');
    greedy.pause();
    greedy.write('GET big\r\n'.repeat(6));
    // Settled: every GET ran, and what the socket could take it took.
    let omem = 0;
    const settled = await eventually(
      async () => {
        const now = (await omemOf('greedy')) ?? 0;
        const same = now === omem && now > 8 << 20;
        omem = now;
        return same;
      },
      5_000,
      200,
    );
    expect(settled).toBe(true);
    await new Promise((r) => setTimeout(r, 1_100));

    const near = Math.ceil(omem / 0.9);
    await admin.config('SET', 'client-output-buffer-limit', `normal ${near} 0 0`);
    const list = node(await rpc.list('ops', 'rs', 1), set.master);
    expect(byName(list, 'blocker')?.marks).toContain('blocked');
    expect(byName(list, 'watcher')?.marks).toContain('monitor');
    expect(byName(list, 'subscriber')?.marks).toEqual(['pubsub']);
    expect(byName(list, 'sleeper')?.marks).toEqual(['idle']);
    expect(byName(list, 'greedy')?.marks).toEqual(expect.arrayContaining(['omem']));
    expect(byName(list, 'greedy')?.limitShare).toBeGreaterThanOrEqual(0.8);
    expect(list?.totals.memory.omem).toBeGreaterThanOrEqual(omem);

    // The same buffer against a limit twice its size is not near it.
    await admin.config('SET', 'client-output-buffer-limit', `normal ${omem * 2} 0 0`);
    const far = byName(node(await rpc.list('ops', 'rs', 1), set.master), 'greedy');
    expect(far?.marks).not.toContain('omem');
    expect(far?.limitShare).toBeLessThan(0.8);
    await admin.config('SET', 'client-output-buffer-limit', 'normal 0 0 0');
    greedy.destroy();
    watcher.destroy();
    for (const r of [blocker, sub, idle]) r.disconnect();
  }, 20_000);
});

describe('clients.kill', () => {
  it('kills one client by ID on the node named: the other is gone, ours stays; on the record with its address and name', async () => {
    const victim = await named('victim');
    const bystander = await named('bystander');
    const before = node(await rpc.list('ops', 'rs'), set.master);
    const target = byName(before, 'victim');
    const ours = before?.clients.filter((c) => c.marks.includes('ours')).map((c) => c.id) ?? [];
    expect(target).toBeDefined();
    expect(ours.length).toBeGreaterThan(0);

    const r = await rpc.as('ops').invoke('clients.kill', { profileId: 'rs', address: at(set.master), id: target?.id ?? '', confirm: target?.id ?? '' });
    expect(r).toEqual({ killed: true, client: { id: target?.id, addr: target?.addr, name: 'victim' } });
    const after = node(await rpc.list('ops', 'rs'), set.master);
    expect(after?.clients.some((c) => c.id === target?.id)).toBe(false);
    expect(byName(after, 'bystander')).toBeDefined();
    // The connection the list came over is the same one of ours, not a new one.
    expect(after?.clients.map((c) => c.id)).toEqual(expect.arrayContaining(ours));
    expect(await bystander.ping()).toBe('PONG');
    expect(await eventually(() => victim.status === 'end' || victim.status === 'close', 2_000)).toBe(true);

    // Gone already: said, and on the record as failed.
    const again = await rpc.as('ops').invoke('clients.kill', { profileId: 'rs', address: at(set.master), id: target?.id ?? '', confirm: target?.id ?? '' });
    expect(again).toEqual({ killed: false });
    const kills = rpc.audit().filter((e) => e.action === 'clients.kill' && e.outcome !== 'started');
    expect(kills.map((e) => [e.user, e.target, e.outcome, e.detail])).toEqual([
      ['ops-user', at(set.master), 'ok', `client ${target?.id} at ${target?.addr} named victim`],
      ['ops-user', at(set.master), 'failed', `client ${target?.id}: no such client on the node (it left, or was killed already)`],
    ]);
  });

  it('refuses a kill that does not repeat the id, an address that is no node of the profile, and the embedded server', async () => {
    const ops = rpc.as('ops');
    await expect(ops.invoke('clients.kill', { profileId: 'rs', address: at(set.master), id: '12', confirm: '13' })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'confirm',
    });
    await expect(ops.invoke('clients.kill', { profileId: 'rs', address: at(set.master), id: 'all', confirm: 'all' })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'id',
    });
    await expect(ops.invoke('clients.kill', { profileId: 'rs', address: '10.9.9.9:6379', id: '12', confirm: '12' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      field: 'address',
    });
    await expect(ops.invoke('clients.kill', { profileId: 'demo', address: at(set.master), id: '12', confirm: '12' })).rejects.toMatchObject({
      code: 'READ_ONLY',
      field: 'profileId',
    });
    await expect(ops.invoke('clients.pause', { profileId: 'demo', address: at(set.master), mode: 'WRITE', ms: 10, confirm: 'PAUSE' })).rejects.toMatchObject({
      code: 'READ_ONLY',
    });
  });
  it('kills a replica’s replication link only when the call says it breaks replication; the replica syncs again', { timeout: 20_000 }, async () => {
    const ops = rpc.as('ops');
    const link = node(await rpc.list('ops', 'rs'), set.master)?.clients.find((c) => c.kind === 'replica');
    expect(link).toBeDefined();
    const target = { profileId: 'rs', address: at(set.master), id: link?.id ?? '', confirm: link?.id ?? '' };
    await expect(ops.invoke('clients.kill', target)).rejects.toMatchObject({ code: 'VALIDATION', field: 'breakReplication' });
    expect(node(await rpc.list('ops', 'rs'), set.master)?.clients.some((c) => c.id === link?.id)).toBe(true);

    const r = await ops.invoke('clients.kill', { ...target, breakReplication: true });
    expect(r).toEqual({ killed: true, client: { id: link?.id, addr: link?.addr, name: link?.name } });
    const linkUp = async () => /master_link_status:up/.test(await (await adminClient(replica())).info('replication'));
    expect(
      await eventually(
        async () => (await linkUp()) && node(await rpc.list('ops', 'rs'), set.master)?.clients.some((c) => c.kind === 'replica') === true,
        15_000,
        200,
      ),
    ).toBe(true);
    const kills = rpc.audit().filter((e) => e.action === 'clients.kill' && e.target === at(set.master) && e.outcome !== 'started');
    expect(kills.at(-2)?.outcome).toBe('failed');
    expect(kills.at(-1)).toMatchObject({ outcome: 'ok', detail: expect.stringContaining(`client ${link?.id}`) });
  });
});

describe('clients.pause and clients.unpause', () => {
  it('pauses writes on one node until UNPAUSE, reads go on, and the list says so; both on the record', async () => {
    const writer = await named('writer');
    const ops = rpc.as('ops');
    const p = await ops.invoke('clients.pause', { profileId: 'rs', address: at(set.master), mode: 'WRITE', ms: 20_000, confirm: 'PAUSE' });
    expect(p.mode).toBe('WRITE');
    expect(p.until).toBeGreaterThan(Date.now() + 15_000);
    let wrote = false;
    const write = writer.set('during:pause', '1').then(() => (wrote = true));
    // Reads go on (from another connection: the writer's own wait behind its SET).
    expect(await admin.get('anything')).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    expect(wrote).toBe(false);
    expect(node(await rpc.list('analyst', 'rs'), set.master)?.paused).toEqual({ mode: 'WRITE', until: p.until });

    await ops.invoke('clients.unpause', { profileId: 'rs', address: at(set.master), confirm: 'UNPAUSE' });
    await write;
    expect(wrote).toBe(true);
    expect(node(await rpc.list('ops', 'rs'), set.master)?.paused).toBeUndefined();
    const rows = rpc.audit().filter((e) => e.action.startsWith('clients.') && e.action.endsWith('pause') && e.outcome !== 'started');
    expect(rows.map((e) => [e.action, e.target, e.outcome, e.detail])).toEqual([
      ['clients.pause', at(set.master), 'ok', 'CLIENT PAUSE 20000 WRITE'],
      ['clients.unpause', at(set.master), 'ok', 'CLIENT UNPAUSE'],
    ]);
  });

  it('under PAUSE ALL, says the node waits and refuses an UNPAUSE Redis would hold behind it; bounded and confirmed', { timeout: 20_000 }, async () => {
    const ops = rpc.as('ops');
    // Long enough for the calls below: each waits up to 1 s for the paused node's INFO (the node discovery's timeout).
    await ops.invoke('clients.pause', { profileId: 'rs', address: at(replica()), mode: 'ALL', ms: 5_000, confirm: 'PAUSE' });
    const paused = node(await rpc.list('ops', 'rs'), replica());
    expect(paused?.error?.code).toBe('PAUSED');
    expect(node(await rpc.list('ops', 'rs'), set.master)?.error).toBeUndefined();
    await expect(ops.invoke('clients.unpause', { profileId: 'rs', address: at(replica()), confirm: 'UNPAUSE' })).rejects.toMatchObject({ code: 'CONFLICT' });
    // Once it ends, the node is read again.
    expect(await eventually(async () => (node(await rpc.list('ops', 'rs'), replica())?.clients.length ?? 0) > 0, 8_000, 250)).toBe(true);

    await expect(ops.invoke('clients.pause', { profileId: 'rs', address: at(set.master), mode: 'ALL', ms: 60_001, confirm: 'PAUSE' })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'ms',
    });
    await expect(ops.invoke('clients.pause', { profileId: 'rs', address: at(set.master), mode: 'WRITE', ms: 10, confirm: 'pause' })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'confirm',
    });
    await expect(ops.invoke('clients.unpause', { profileId: 'rs', address: at(set.master), confirm: 'yes' })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'confirm',
    });
  });
});

describe('roles', () => {
  it('refuses an analyst every write call on the server, and records each attempt', async () => {
    const analyst = rpc.as('analyst');
    const target = { profileId: 'rs', address: at(set.master) };
    const victim = await named('analyst-victim');
    const id = String(await victim.client('ID'));
    await expect(analyst.invoke('clients.kill', { ...target, id, confirm: id })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(analyst.invoke('clients.pause', { ...target, mode: 'WRITE', ms: 1_000, confirm: 'PAUSE' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(analyst.invoke('clients.unpause', { ...target, confirm: 'UNPAUSE' })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(await victim.ping()).toBe('PONG');
    const refused = rpc.audit().filter((e) => e.outcome === 'refused');
    expect(refused.map((e) => [e.user, e.action, e.target])).toEqual(
      ['clients.kill', 'clients.pause', 'clients.unpause'].map((a) => ['analyst-user', a, at(set.master)]),
    );
  });
});

async function omemOf(name: string): Promise<number | undefined> {
  const line = String(await admin.client('LIST'))
    .split('\n')
    .find((l) => l.includes(` name=${name} `));
  const m = line === undefined ? null : / omem=(\d+)/.exec(line);
  return m === null ? undefined : Number(m[1]);
}
