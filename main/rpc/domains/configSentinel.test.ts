import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentinelSpec } from '../../../testing/profiles';
import { adminClient, closeAdmins } from '../../../testing/redis';
import { useSentinel } from '../../../testing/sentinel';
import { configRpc, type ConfigRpc } from './configRpcTestKit';

const PASS = 'Pw-sentinel-data-5b0c';
const SENTINEL_PASS = 'Pw-sentinel-itself-e41f';
const sentinel = useSentinel({ password: PASS, sentinelPassword: SENTINEL_PASS });
let rpc: ConfigRpc;

beforeAll(() => {
  const spec = sentinelSpec(sentinel(), { password: PASS });
  if (spec.topology?.kind === 'sentinel') spec.topology.sentinelPassword = SENTINEL_PASS;
  rpc = configRpc([{ id: 'ha', source: 'config', spec }]);
});
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
});

describe('config of a sentinel set', () => {
  it('reads the master and its replicas (not the sentinels), and finds the replica that drifted', async () => {
    const { master, replicas } = sentinel();
    const odd = replicas[0]!;
    const admin = await adminClient(odd, { password: PASS });
    await admin.config('SET', 'save', '900 1');
    try {
      const view = await rpc.call('analyst', 'config.get', { profileId: 'ha' });
      expect(view.topology).toBe('sentinel');
      const at = (p: { host: string; port: number }) => `${p.host}:${p.port}`;
      expect(view.nodes.map((n) => n.address).sort()).toEqual([master, ...replicas].map(at).sort());
      expect(view.nodes.every((n) => n.state === 'ok')).toBe(true);
      const save = view.params.find((p) => p.name === 'save');
      const i = view.nodes.findIndex((n) => n.address === at(odd));
      expect(save?.cells[i]).toMatchObject({ value: '900 1', diff: { against: at(master), kind: 'matters' } });
      expect(save?.cells[i]?.diff?.reason).toMatch(/snapshots to disk on another schedule/);
    } finally {
      await admin.config('SET', 'save', '');
    }
  });

  it('never sends either password', () => {
    expect(rpc.frames().length).toBeGreaterThan(0);
    for (const secret of [PASS, SENTINEL_PASS]) expect(rpc.frames().filter((f) => f.includes(secret))).toEqual([]);
  });
});
