import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../app/define';
import type { RpcClient } from '../../../app/rpcClient';
import { slotOf } from '../../core/resp/slot';
import { parseClusterNodes } from '../../core/pool/clusterNodes';
import type { TopologyNode } from '../../core/pool/types';
import { runCli } from '../../../testing/cli';
import { useCluster } from '../../../testing/cluster';
import { specFor } from '../../../testing/profiles';
import { audienceRpc, follow, type AudienceRpc } from './audienceRpcTestKit';

const cluster = useCluster();
let rpc: AudienceRpc;
const as = (role: Role): RpcClient => rpc.as(role);
const RANGE = { from: '2024-01-01', to: '2024-01-10' };

beforeAll(() => {
  const [host = '127.0.0.1', port] = (cluster().addresses[0] ?? '').split(':');
  const seed = { host, port: Number(port) };
  rpc = audienceRpc([{ id: 'shards', source: 'config', spec: specFor(seed, { name: 'shards', topology: { kind: 'cluster', seeds: [seed] } }) }]);
});
afterAll(() => rpc.close());

/** Each master's DBSIZE, by "host:port", and the master whose slots hold `slot` (CLUSTER NODES). */
async function sizes(slot: number): Promise<{ sizes: Map<string, number>; owner: string | undefined }> {
  const out = new Map<string, number>();
  let nodes: TopologyNode[] = [];
  for (const m of cluster().masters) {
    const r = new Redis({ host: m.host, port: m.port, lazyConnect: true });
    await r.connect();
    out.set(`${m.host}:${m.port}`, await r.dbsize());
    nodes = parseClusterNodes(String(await r.call('CLUSTER', 'NODES')));
    r.disconnect();
  }
  const owner = nodes.find((n) => n.role === 'master' && (n.slots ?? []).some(([a, b]) => slot >= a && slot <= b));
  return { sizes: out, owner: owner?.address };
}

describe('audience trials on a Redis Cluster', () => {
  it('demo data gets the hash tag {aud} and lands whole on the master serving its slot; every strategy agrees there', async () => {
    const { jobId } = await as('ops').invoke('audience.demoData', { profileId: 'shards', users: 2_000, days: 10, seed: 4 });
    const demo = await follow(as('ops'), 'audience.demoProgress', jobId);
    expect(demo.error).toBeUndefined();
    expect(demo.events.at(-1)).toMatchObject({ kind: 'done', report: { users: 2_000 } });
    const { sizes: perMaster, owner } = await sizes(slotOf('{aud}'));
    expect([...perMaster.entries()].filter(([, n]) => n > 0).map(([a]) => a)).toEqual([owner]);

    const trial = await as('ops').invoke('audience.start', {
      profileId: 'shards',
      where: 'gender=f AND NOT region=NE',
      ...RANGE,
      trials: 2,
      layout: { hashTag: 'aud' },
    });
    const { events, error } = await follow(as('ops'), 'audience.progress', trial.jobId);
    expect(error).toBeUndefined();
    expect(events[0]).toMatchObject({ kind: 'started', address: owner, skipped: [], strategies: ['bitmap-lua', 'bitmap-pipeline', 'sets', 'zunionstore'] });
    const end = events.at(-1);
    expect(end).toMatchObject({ kind: 'done', report: { countsMatch: true } });
    if (end?.kind === 'done') expect(end.report.audienceSize).toBeGreaterThan(0);
  });

  it("audience.query looks the tag's master up once, and again only after a CLUSTER FAILOVER moved it", async () => {
    const ask = () => as('analyst').invoke('audience.query', { profileId: 'shards', where: 'gender=f', ...RANGE, layout: { hashTag: 'aud' } });
    const first = await ask();
    expect(first.audienceSize).toBeGreaterThan(0);
    // CLUSTER NODES is how the master is found: further queries do not ask it again.
    const lookups = async () => {
      let n = 0;
      for (const node of cluster().nodes) {
        const r = new Redis({ host: node.host, port: node.port, lazyConnect: true });
        await r.connect();
        n += Number(/cmdstat_cluster\|nodes:calls=(\d+)/.exec(await r.info('commandstats'))?.[1] ?? 0);
        r.disconnect();
      }
      return n;
    };
    const before = await lookups();
    for (let i = 0; i < 5; i++) expect((await ask()).audienceSize).toBe(first.audienceSize);
    expect(await lookups()).toBe(before);

    // The tag's master fails over to its replica: the kept server is stale (MOVED), so the next query looks again.
    const { owner } = await sizes(slotOf('{aud}'));
    const seed = cluster().masters[0];
    const probe = new Redis({ host: seed?.host, port: seed?.port, lazyConnect: true });
    await probe.connect();
    const replica = parseClusterNodes(String(await probe.call('CLUSTER', 'NODES'))).find((n) => n.role === 'replica' && n.master === owner);
    probe.disconnect();
    expect(replica).toBeDefined();
    const [rhost = '', rport = ''] = (replica?.address ?? '').split(':');
    const promoted = new Redis({ host: rhost, port: Number(rport), lazyConnect: true });
    await promoted.connect();
    try {
      await promoted.call('CLUSTER', 'FAILOVER');
      await expect.poll(async () => (await promoted.info('replication')).includes('role:master'), { timeout: 10_000 }).toBe(true);
    } finally {
      promoted.disconnect();
    }
    await expect.poll(async () => (await sizes(slotOf('{aud}'))).owner, { timeout: 10_000 }).toBe(replica?.address);
    expect((await ask()).audienceSize).toBe(first.audienceSize);
  });

  it('a layout without a hash tag is refused with the reason and the fix', async () => {
    await expect(as('analyst').invoke('audience.start', { profileId: 'shards', where: 'gender=f', ...RANGE })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'layout.hashTag',
      message: expect.stringContaining('the audience keys are spread over several slots: set a hash tag in the layout so they share one, e.g. aud'),
    });
  });

  it("cacheboard audience --cluster --hash-tag runs on the tag's master; without the tag it says why", async () => {
    const [first = ''] = cluster().addresses;
    const base = [
      'audience',
      '--url',
      `redis://${first}/0`,
      '--cluster',
      '--where',
      'gender=m',
      '--from',
      RANGE.from,
      '--to',
      RANGE.to,
      '--trials',
      '1',
      '--json',
    ];
    const ok = await runCli([...base, '--hash-tag', 'aud']);
    expect(ok.err).toBe('');
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.out)).toMatchObject({ counts_match: true });
    const untagged = await runCli(base);
    expect(untagged.code).toBe(1);
    expect(untagged.err).toContain('set a hash tag in the layout so they share one, e.g. aud');
  });
});
