import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterSpec } from '../../../testing/profiles';
import { useCluster } from '../../../testing/cluster';
import { slotOf } from '../../core/resp/slot';
import { consoleRpc, onlyReply, type ConsoleRpc } from './consoleRpcTestKit';

const cluster = useCluster();
let rpc: ConsoleRpc;
let direct: Redis[] = [];
/** Each master's address and slot ranges, as console.targets lists them. */
let masters: { address: string; ranges: Array<[number, number]> }[] = [];

const owner = (key: string) => {
  const slot = slotOf(key);
  return masters.find((m) => m.ranges.some(([a, b]) => slot >= a && slot <= b))?.address;
};

beforeAll(async () => {
  rpc = consoleRpc([{ id: 'p', source: 'config', spec: clusterSpec(cluster().addresses) }]);
  direct = cluster().nodes.map((n) => new Redis({ host: n.host, port: n.port, lazyConnect: true }));
  await Promise.all(direct.map((r) => r.connect()));
});
afterAll(async () => {
  await rpc.close();
  direct.forEach((r) => r.disconnect());
});

describe('the console on a cluster', () => {
  it('lists every master with its slots, each followed by its replica', async () => {
    const { topology, nodes } = await rpc.as('analyst').invoke('console.targets', { profileId: 'p' });
    expect(topology).toBe('cluster');
    expect(nodes.filter((n) => n.role === 'master')).toHaveLength(3);
    expect(nodes.filter((n) => n.role === 'replica')).toHaveLength(3);
    nodes.forEach((n, i) => {
      if (n.role === 'replica') expect(n.master).toBe(nodes[i - 1]?.address);
    });
    masters = nodes
      .filter((n) => n.role === 'master')
      .map((n) => ({
        address: n.address,
        ranges: (n.slots ?? '')
          .split(',')
          .map((r) => r.split('-').map(Number) as [number, number])
          .map(([a, b = a]) => [a, b] as [number, number]),
      }));
    const covered = masters.flatMap((m) => m.ranges).reduce((sum, [a, b]) => sum + b - a + 1, 0);
    expect(covered).toBe(16384);
  });

  it('sends a keyed command to the master serving its slot, for keys on each of the three', async () => {
    const keys: string[] = [];
    for (let i = 0; new Set(keys.map(owner)).size < 3; i++) if (!keys.some((k) => owner(k) === owner(`key:${i}`))) keys.push(`key:${i}`);
    for (const key of keys) {
      const r = await rpc.done('ops', { line: `SET ${key} value-of-${key}` });
      expect(r.replies).toMatchObject([{ address: owner(key), role: 'master', reply: { t: 'simple', v: 'OK' } }]);
      const node = direct.find((d) => `${d.options.host}:${d.options.port}` === owner(key));
      expect(await node?.get(key)).toBe(`value-of-${key}`);
    }
  });

  it('places a command whose keys move with its arguments (EVAL) by COMMAND GETKEYS', async () => {
    const key = 'key:eval:1';
    await rpc.done('ops', { line: `SET ${key} from-eval` });
    const r = await rpc.done('ops', { line: `EVAL "return redis.call('GET', KEYS[1])" 1 ${key}` });
    expect(r.replies).toMatchObject([{ address: owner(key), reply: { t: 'bulk', v: 'from-eval' } }]);
  });

  it("explains CROSSSLOT with each key's slot and a hash tag", async () => {
    const [a, b] = ['alpha', 'beta'];
    expect(slotOf(a)).not.toBe(slotOf(b));
    const r = await rpc.done('ops', { line: `MSET ${a} 1 ${b} 2` });
    expect(r.replies[0]?.reply).toMatchObject({ t: 'error', v: expect.stringMatching(/^CROSSSLOT /) });
    expect(r.replies[0]?.hint).toContain(`"${a}" is in slot ${slotOf(a)}`);
    expect(r.replies[0]?.hint).toContain(`"${b}" is in slot ${slotOf(b)}`);
    expect(r.replies[0]?.hint).toContain('{hash tag}');
    // With a hash tag they go together.
    const tagged = await rpc.done('ops', { line: 'MSET {t}alpha 1 {t}beta 2' });
    expect(tagged.replies).toMatchObject([{ address: owner('t'), reply: { v: 'OK' } }]);
  });

  it('runs DBSIZE on every master, side by side, and on one node when asked', async () => {
    const counts = await Promise.all(masters.map(async (m) => direct.find((d) => `${d.options.host}:${d.options.port}` === m.address)?.dbsize()));
    const r = await rpc.done('analyst', { line: 'DBSIZE', target: { kind: 'masters' } });
    expect(r.replies.map((n) => n.address)).toEqual(masters.map((m) => m.address));
    expect(r.replies.map((n) => n.reply)).toEqual(counts.map((c) => ({ t: 'integer', v: String(c) })));
    // The server tips DBSIZE response_policy:agg_sum: one total under the masters' counts, as a cluster client answers.
    expect(r.total).toEqual({ value: String(counts.reduce((a, c) => (a ?? 0) + (c ?? 0), 0)), nodes: 3, of: 3 });
    // Auto: the server's request_policy (all_shards) sends it to every master too.
    expect((await rpc.done('analyst', { line: 'DBSIZE' })).replies).toHaveLength(3);
    // Integers the server does not sum (each master's last save time): side by side, no total.
    const saves = await rpc.done('ops', { line: 'LASTSAVE', target: { kind: 'masters' } });
    expect(saves.replies.map((n) => n.reply.t)).toEqual(['integer', 'integer', 'integer']);
    expect(saves.total).toBeUndefined();
    const replica = (await rpc.as('ops').invoke('console.targets', { profileId: 'p' })).nodes.find((n) => n.role === 'replica');
    const one = await rpc.confirmed('ops', { line: 'ROLE', target: { kind: 'node', address: replica?.address ?? '' } });
    expect(one.replies).toMatchObject([{ address: replica?.address, role: 'replica' }]);
    expect(JSON.stringify(onlyReply(one))).toContain('slave');
  });

  it("refuses a node that is not one of the cluster's, and a DB other than 0", async () => {
    await expect(rpc.refusal('ops', { line: 'PING', target: { kind: 'node', address: '127.0.0.1:1' } })).resolves.toMatchObject({
      code: 'VALIDATION',
      field: 'target.address',
    });
    await expect(rpc.refusal('ops', { line: 'PING', db: 1 })).resolves.toMatchObject({ code: 'VALIDATION', field: 'db' });
  });

  it('follows a MOVED once when a slot moved since it read the slot map', async () => {
    const key = 'moved:key:1';
    const slot = slotOf(key);
    const from = owner(key) as string;
    const to = masters.find((m) => m.address !== from)?.address as string;
    const node = (address: string) => direct.find((d) => `${d.options.host}:${d.options.port}` === address) as Redis;
    const movedAt = async (address: string) => Number(/errorstat_MOVED:count=(\d+)/.exec(await node(address).info('errorstats'))?.[1] ?? 0);
    // Past the console's slot-map cache, then a keyed command: the map it keeps is read now, with the slot on `from`.
    await new Promise((r) => setTimeout(r, 5_100));
    await rpc.done('ops', { line: 'GET key:0' });
    const before = await movedAt(from);
    // The slot is empty: move it as redis-cli --cluster reshard does, without MIGRATE.
    const [fromId, toId] = await Promise.all([node(from).call('CLUSTER', 'MYID'), node(to).call('CLUSTER', 'MYID')]);
    await node(to).call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', String(fromId));
    await node(from).call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', String(toId));
    for (const m of [to, from, ...masters.map((x) => x.address).filter((a) => a !== to && a !== from)])
      await node(m).call('CLUSTER', 'SETSLOT', slot, 'NODE', String(toId));
    const r = await rpc.done('ops', { line: `SET ${key} after-the-move` });
    expect(r.replies).toMatchObject([{ address: to, reply: { t: 'simple', v: 'OK' } }]);
    expect(await movedAt(from)).toBe(before + 1);
    expect(await node(to).get(key)).toBe('after-the-move');
  }, 20_000);

  // Last: it stops a master.
  it('answers for the live masters beside an error for one that is down, on "every master"', async () => {
    const down = masters[2]?.address as string;
    const proc = cluster().nodes.find((n) => `${n.host}:${n.port}` === down);
    await proc?.stop();
    const r = await rpc.done('analyst', { line: 'DBSIZE', target: { kind: 'masters' } });
    expect(r.replies.map((n) => n.address)).toEqual(masters.map((m) => m.address));
    expect(r.replies.slice(0, 2).map((n) => n.reply.t)).toEqual(['integer', 'integer']);
    expect(r.replies[2]?.reply).toMatchObject({ t: 'error', v: expect.stringMatching(/^Not answered: /) });
    // The total says it left the silent master out.
    expect(r.total).toMatchObject({ nodes: 2, of: 3 });
  }, 30_000);
});
