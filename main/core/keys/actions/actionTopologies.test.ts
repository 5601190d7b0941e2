import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostPort } from '../../../../app/hostPort';
import { useCluster } from '../../../../testing/cluster';
import { clusterSpec, sentinelSpec } from '../../../../testing/profiles';
import { useSentinel } from '../../../../testing/sentinel';
import { b64 } from '../edit/editTestKit';
import { actionRunKit } from './actionRunTestKit';

const cluster = useCluster();
const sentinel = useSentinel();
let kit: ReturnType<typeof actionRunKit>;
let side: Cluster;
let master: Redis;

beforeAll(async () => {
  const shards = clusterSpec(cluster().addresses);
  kit = actionRunKit([
    { id: 'shards', source: 'config', spec: shards },
    { id: 'ha', source: 'config', spec: sentinelSpec(sentinel(), { db: 3 }) },
  ]);
  side = new Cluster([{ host: shards.host, port: shards.port }]);
  const at = parseHostPort(await sentinel().currentMaster(), 6379);
  if ('error' in at) throw new Error(at.error);
  master = new Redis({ ...at, db: 3 });
});
afterAll(async () => {
  await kit.close();
  side.disconnect();
  master.disconnect();
});

/** Keys on each master of the cluster matching `glob`, by address. */
async function perMaster(glob: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const node of side.nodes('master')) {
    let n = 0;
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', glob, 'COUNT', 1000);
      n += keys.length;
      cursor = next;
    } while (cursor !== '0');
    out.set(`${node.options.host ?? ''}:${node.options.port ?? 0}`, n);
  }
  return out;
}

/** n writes at once (a cluster pipeline must stay in one slot; these spread over all of them). */
const spread = (write: (i: number) => Promise<unknown>, n: number) => Promise.all(Array.from({ length: n }, (_, i) => write(i)));

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

describe('bulk key actions on a cluster', () => {
  it('counts per master exactly and deletes on every master at once, each key on the master serving its slot', async () => {
    await spread((i) => side.set(`price:eu:${i}`, 'v'), 3000);
    await spread((i) => side.set(`price:us:${i}`, 'v'), 900);
    const before = await perMaster('price:eu:*');
    expect(total(before)).toBe(3000);

    const dry = await kit.run('shards', { selection: { match: b64('price:eu:*') }, action: { op: 'delete' }, dryRun: true });
    if (dry.kind !== 'done') throw new Error(JSON.stringify(dry));
    expect(dry.report.matched).toBe(3000);
    expect(dry.report.shards).toHaveLength(3);
    for (const s of dry.report.shards) expect(s.matched).toBe(before.get(s.node));

    const run = await kit.run('shards', { selection: { match: b64('price:eu:*') }, action: { op: 'delete' }, dryRun: false });
    expect(run).toMatchObject({ kind: 'done', report: { matched: 3000, acted: 3000, skipped: 0, errors: 0 } });
    expect(total(await perMaster('price:eu:*'))).toBe(0);
    expect(total(await perMaster('price:us:*'))).toBe(900);
  });

  it('filtered expire runs the check-and-act script on each key’s own master', async () => {
    await spread((i) => side.hset(`sess:${i}`, 'f', 'v'), 600);
    await spread((i) => side.set(`sess:s:${i}`, 'v'), 400);
    const run = await kit.run('shards', {
      selection: { match: b64('sess:*'), type: 'hash', ttl: 'none' },
      action: { op: 'expire', seconds: 900 },
      dryRun: false,
    });
    expect(run).toMatchObject({ kind: 'done', report: { matched: 600, acted: 600, skipped: 0, errors: 0 } });
    expect(await side.ttl('sess:17')).toBeGreaterThan(800);
    expect(await side.ttl('sess:s:17')).toBe(-1);
    const persist = await kit.run('shards', { selection: { match: b64('sess:*') }, action: { op: 'persist' }, dryRun: false });
    expect(persist).toMatchObject({ kind: 'done', report: { matched: 1000, acted: 600, skipped: 400 } });
  });
});

describe('bulk key actions over Sentinel', () => {
  it('acts on the master the sentinels name', async () => {
    const p = master.pipeline();
    for (let i = 0; i < 1500; i++) p.set(`tmp:${i}`, 'v');
    for (let i = 0; i < 100; i++) p.set(`other:${i}`, 'v');
    await p.exec();
    const run = await kit.run('ha', { selection: { match: b64('tmp:*') }, action: { op: 'delete' }, dryRun: false });
    expect(run).toMatchObject({ kind: 'done', report: { matched: 1500, acted: 1500, skipped: 0, errors: 0 } });
    expect(run.kind === 'done' ? run.report.shards.map((s) => s.node) : []).toEqual([await sentinel().currentMaster()]);
    expect(await master.dbsize()).toBe(100);
  });
});
