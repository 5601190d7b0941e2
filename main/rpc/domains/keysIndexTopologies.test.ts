import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCluster } from '../../../testing/cluster';
import { specFor } from '../../../testing/profiles';
import { useSentinel } from '../../../testing/sentinel';
import { parseHostPort } from '../../../app/hostPort';
import { b64, followIndex, keysRpc, type KeysRpc } from './keysIndexTestKit';

const cluster = useCluster();
const set = useSentinel({ password: 'data-pw' });
let rpc: KeysRpc;

const KEYS = 3_000;

beforeAll(async () => {
  const [host = '127.0.0.1', port] = (cluster().addresses[0] ?? '').split(':');
  const seed = { host, port: Number(port) };
  const sentinels = set().sentinelAddresses.map((a) => {
    const at = parseHostPort(a, 26379);
    if ('error' in at) throw new Error(at.error);
    return at;
  });
  rpc = keysRpc([
    { id: 'shards', source: 'config', spec: specFor(seed, { name: 'shards', topology: { kind: 'cluster', seeds: [seed] } }) },
    { id: 'ha', source: 'config', spec: specFor(sentinels[0] as { host: string; port: number }, { name: 'ha', password: 'data-pw', topology: { kind: 'sentinel', sentinels, masterName: set().masterName } }) },
  ]);
  // Keys spread over every master (no hash tag), written through a cluster client.
  const c = new Redis.Cluster([seed]);
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
    const per = await Promise.all(cluster().masters.map(async (n) => {
      const r = new Redis({ host: n.host, port: n.port });
      const size = await r.dbsize();
      r.disconnect();
      return size;
    }));
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
      const page = await rpc.client.invoke('keys.list', { profileId: 'shards', separator: '/', match: b64('k:3:*'), limit: 200, ...(cursor ? { cursor } : {}) });
      expect(page.source).toBe('scan');
      for (const k of page.keys) seen.add(k.key.b64);
      cursor = page.cursor;
    } while (cursor !== null);
    expect(seen.size).toBe(KEYS / 10);
  });

  it('a sentinel set: the master the sentinels name', async () => {
    expect(await build('ha')).toMatchObject({ kind: 'done', state: { complete: true, scanned: 500 } });
    const root = await rpc.client.invoke('keys.tree', { profileId: 'ha', prefix: '' });
    expect(root.nodes).toMatchObject([{ kind: 'folder', count: 500 }]);
  });
});
