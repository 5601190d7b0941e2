import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterSpec } from '../../../testing/profiles';
import { adminClient, closeAdmins } from '../../../testing/redis';
import { useCluster } from '../../../testing/cluster';
import { configRpc, type ConfigRpc } from './configRpcTestKit';

const PASS = 'Pw-cluster-requirepass-9a7d';
const cluster = useCluster({ password: PASS });
let rpc: ConfigRpc;

beforeAll(() => {
  rpc = configRpc([{ id: 'shards', source: 'config', spec: clusterSpec(cluster().addresses, { password: PASS }) }]);
});
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
});

const at = (p: { host: string; port: number }) => `${p.host}:${p.port}`;

describe('config of a cluster', () => {
  it('reads every node, and finds the master that differs from the other masters and its replica', async () => {
    const odd = cluster().masters[1]!;
    const admin = await adminClient(odd, { password: PASS });
    await admin.config('SET', 'maxmemory', '200mb');
    try {
      const view = await rpc.call('analyst', 'config.get', { profileId: 'shards' });
      expect(view.topology).toBe('cluster');
      expect(view.nodes).toHaveLength(6);
      expect(view.nodes.every((n) => n.state === 'ok')).toBe(true);
      expect(
        view.nodes
          .filter((n) => n.role === 'master')
          .map((n) => n.address)
          .sort(),
      ).toEqual(cluster().masters.map(at).sort());
      const maxmemory = view.params.find((p) => p.name === 'maxmemory');
      expect(maxmemory?.differs).toBe('matters');
      const diffs = view.nodes.flatMap((n, i) => {
        const d = maxmemory?.cells[i]?.diff;
        return d === undefined ? [] : [{ address: n.address, role: n.role, kind: d.kind }];
      });
      // The odd master against the other masters; its replica against it (the others' replicas match theirs).
      const replicaOfOdd = view.nodes.find((n) => n.master === at(odd));
      expect(diffs.sort((a, b) => a.address.localeCompare(b.address))).toEqual(
        [
          { address: at(odd), role: 'master', kind: 'matters' },
          { address: replicaOfOdd?.address, role: 'replica', kind: 'matters' },
        ].sort((a, b) => String(a.address).localeCompare(String(b.address))),
      );
      const oddCell = maxmemory?.cells[view.nodes.findIndex((n) => n.address === at(odd))];
      expect(oddCell?.diff?.reason).toMatch(/^Unlike the other masters \(as on /);
      expect(view.params.find((p) => p.name === 'cluster-node-timeout')?.differs).toBeUndefined();
      expect(view.params.find((p) => p.name === 'cluster-port')?.differs).toBe('expected');
    } finally {
      await admin.config('SET', 'maxmemory', '0');
    }
  });

  it('sets every node of the cluster, each answering for itself', async () => {
    const out = await rpc.call('ops', 'config.set', { profileId: 'shards', name: 'slowlog-max-len', value: '200', target: { scope: 'every' } });
    expect(out.results).toHaveLength(6);
    expect(out.results.every((r) => r.ok && r.after === '200')).toBe(true);
    const replica = cluster().replicas[0]!;
    const one = await rpc.call('ops', 'config.set', {
      profileId: 'shards',
      name: 'slowlog-max-len',
      value: '128',
      target: { scope: 'node', address: at(replica) },
    });
    expect(one.results).toEqual([{ address: at(replica), ok: true, before: '200', after: '128' }]);
    const view = await rpc.call('ops', 'config.get', { profileId: 'shards' });
    const p = view.params.find((x) => x.name === 'slowlog-max-len');
    expect(p?.cells[view.nodes.findIndex((n) => n.address === at(replica))]?.diff?.kind).toBe('drift');
  });

  it('never sends the cluster password', () => {
    expect(rpc.frames().length).toBeGreaterThan(0);
    expect(rpc.frames().filter((f) => f.includes(PASS))).toEqual([]);
    expect(rpc.auditText().includes(PASS)).toBe(false);
  });
});
