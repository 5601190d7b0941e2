import { describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { useCluster } from '../../testing/cluster';

const cluster = useCluster();
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

describe('cacheboard info --cluster', () => {
  it('--json lists every node with its role, the master it follows and its slots, plus topology and cluster_state', async () => {
    const [seed, ...more] = cluster().addresses;
    const r = await runCli(['info', '--json', '--url', `redis://${seed ?? ''}`, '--cluster', '--seeds', more.slice(0, 1).join(',')]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as {
      topology: string;
      cluster_state: string;
      slots: Record<string, number>;
      nodes: Array<{ address: string; role: string; up: boolean; master: string | null; slots: Array<[number, number]> | null; keyspace: unknown }>;
    };
    expect(json).toMatchObject({ topology: 'cluster', cluster_state: 'ok', slots: { assigned: 16384, ok: 16384, pfail: 0, fail: 0 } });
    expect(json.nodes.map((n) => n.address).sort()).toEqual(cluster().nodes.map(addr).sort());
    const masters = json.nodes.filter((n) => n.role === 'master');
    expect(masters.map((n) => n.address).sort()).toEqual(cluster().masters.map(addr).sort());
    expect(masters.flatMap((m) => m.slots ?? []).reduce((sum, [a, b]) => sum + b - a + 1, 0)).toBe(16384);
    for (const n of json.nodes) {
      expect(n.up).toBe(true);
      expect(n.keyspace).toEqual(expect.any(Object));
      if (n.role === 'replica') expect(masters.map((m) => m.address)).toContain(n.master);
      else expect(n.master).toBeNull();
    }
  });

  it("prints cluster_state and each master's slots for people", async () => {
    const r = await runCli(['info', '--url', `redis://${cluster().addresses[0] ?? ''}`, '--cluster']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^cluster_state ok {2}slots assigned 16384, ok 16384, pfail 0, fail 0$/m);
    expect(r.out.match(/ {2}slots \d+-\d+/g)).toHaveLength(3);
    // Each node named by the server it is (serverTitle): "Redis 7.0.15" here, "Valkey 8.0.1" on Valkey.
    expect(r.out.match(/ master {2}Redis \d+\.\d+\.\d+ {2}ops\/s /g)).toHaveLength(3);
  });
});
