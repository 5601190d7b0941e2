import { describe, expect, it } from 'vitest';
import { eventually } from '../../../testing/redis';
import { useHubOnReplicaSet } from './metricsTestKit';

const fx = useHubOnReplicaSet({ replicas: 2 });
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

describe('the nodes of a profile whose master is down', () => {
  it('are every node listed before, each with its own state, and a live replica is still a node to watch', async () => {
    const { master, replicas } = fx.set;
    // Nobody watches the profile (no poller): the hub's own earlier discovery is what it knows.
    const before = await fx.hub.nodes('m');
    expect(before.map((n) => n.address).sort()).toEqual([master, ...replicas].map(addr).sort());

    master.kill('SIGKILL');
    expect(await eventually(() => master.exited(), 5_000)).toBe(true);
    const after = await fx.hub.nodes('m');
    // The master first, down; its replicas still answer and say so themselves.
    expect(after[0]).toEqual({ address: addr(master), role: 'master', up: false });
    expect(after.slice(1).sort((a, b) => a.address.localeCompare(b.address))).toEqual(
      replicas.map((r) => ({ address: addr(r), role: 'replica', up: true, master: addr(master) })).sort((a, b) => a.address.localeCompare(b.address)),
    );
    // MONITOR's target check: a known replica is accepted, an address nobody reported is not.
    expect(await fx.hub.nodeOf('m', addr(replicas[0]!))).toBe(addr(replicas[0]!));
    await expect(fx.hub.nodeOf('m', '127.0.0.1:1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
