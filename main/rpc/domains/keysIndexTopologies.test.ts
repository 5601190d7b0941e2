import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../testing/cli';
import { useCluster } from '../../../testing/cluster';
import { clusterSpec, sentinelSpec } from '../../../testing/profiles';
import { useSentinel } from '../../../testing/sentinel';
import { b64, followIndex, keysRpc, type KeysRpc } from './keysIndexTestKit';

const cluster = useCluster();
const set = useSentinel({ password: 'data-pw' });
let rpc: KeysRpc;

const KEYS = 3_000;

beforeAll(async () => {
  const shards = clusterSpec(cluster().addresses);
  rpc = keysRpc([
    { id: 'shards', source: 'config', spec: shards },
    { id: 'ha', source: 'config', spec: sentinelSpec(set(), { password: 'data-pw' }) },
  ]);
  // Keys spread over every master (no hash tag), written through a cluster client.
  const c = new Redis.Cluster([{ host: shards.host, port: shards.port }]);
  await Promise.all([...Array(KEYS).keys()].map((i) => c.set(`k:${i % 10}:${i}`, 'v')));
  await c.quit();
  const m = new Redis({ host: set().master.host, port: set().master.port, password: 'data-pw' });
  const p = m.pipeline();
  for (let i = 0; i < 500; i++) p.set(`s:${i}`, 'v');
  await p.exec();
  await m.quit();
});
afterAll(() => rpc.close());

async function build(profileId: string) {
  const { jobId } = await rpc.client.invoke('keys.index.start', { profileId });
  const { events, error } = await followIndex(rpc.client, jobId);
  expect(error).toBeUndefined();
  return events.at(-1);
}

describe('the key index on a cluster and a sentinel set', () => {
  it('a cluster: every master scanned, counts exact; lists and folder stats route by slot', async () => {
    const per = await Promise.all(
      cluster().masters.map(async (n) => {
        const r = new Redis({ host: n.host, port: n.port });
        const size = await r.dbsize();
        r.disconnect();
        return size;
      }),
    );
    expect(per.filter((n) => n > 0).length).toBe(3);
    expect(await build('shards')).toMatchObject({ kind: 'done', state: { complete: true, scanned: KEYS, total: KEYS } });
    const root = await rpc.client.invoke('keys.tree', { profileId: 'shards', prefix: '' });
    expect(root.nodes).toMatchObject([{ kind: 'folder', count: KEYS, ref: { b64: b64('k:') } }]);
    const k3 = await rpc.client.invoke('keys.tree', { profileId: 'shards', prefix: b64('k:3:') });
    expect(k3.totalNodes).toBe(KEYS / 10);
    const list = await rpc.client.invoke('keys.list', { profileId: 'shards', match: b64('k:3:*'), limit: 1000 });
    expect(list).toMatchObject({ source: 'index', total: KEYS / 10, complete: true });
    expect(list.keys.every((k) => k.type === 'string' && k.ttlMs === -1)).toBe(true);
    const stats = await rpc.client.invoke('keys.folderStats', { profileId: 'shards', prefix: b64('k:'), samples: 200 });
    expect(stats).toMatchObject({ sampled: 200, count: KEYS, types: [{ type: 'string', count: 200 }] });
    expect(stats.memory.estimate).toBeGreaterThan(0);
    // No index for DB 0 by another separator: SCAN MATCH walks every master.
    const seen = new Set<string>();
    let cursor: string | null | undefined;
    do {
      const page = await rpc.client.invoke('keys.list', {
        profileId: 'shards',
        separator: '/',
        match: b64('k:3:*'),
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      expect(page.source).toBe('scan');
      for (const k of page.keys) seen.add(k.key.b64);
      cursor = page.cursor;
    } while (cursor !== null);
    expect(seen.size).toBe(KEYS / 10);
  });

  it('cacheboard keys tree --cluster counts every master; ls --cluster lists across them', async () => {
    const url = `redis://${cluster().addresses[0] ?? ''}`;
    const tree = await runCli(['keys', 'tree', '--url', url, '--cluster', '--json']);
    expect(tree.code).toBe(0);
    expect(JSON.parse(tree.out)).toMatchObject({ total: KEYS, complete: true, nodes: [{ prefix: 'k:', count: KEYS }] });
    const ls = await runCli(['keys', 'ls', '--url', url, '--cluster', '--match', 'k:3:*', '--limit', '1000', '--json']);
    expect(JSON.parse(ls.out)).toMatchObject({ complete: true });
    expect((JSON.parse(ls.out) as { keys: unknown[] }).keys).toHaveLength(KEYS / 10);
  });

  it('a sentinel set: the master the sentinels name', async () => {
    expect(await build('ha')).toMatchObject({ kind: 'done', state: { complete: true, scanned: 500 } });
    const root = await rpc.client.invoke('keys.tree', { profileId: 'ha', prefix: '' });
    expect(root.nodes).toMatchObject([{ kind: 'folder', count: 500 }]);
  });
});
