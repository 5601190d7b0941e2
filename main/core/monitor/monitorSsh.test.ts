import { afterEach, describe, expect, it } from 'vitest';
import { ProfileDraft } from '../../../app/schemas/connections';
import { eventually } from '../../../testing/redis';
import { Pool } from '../pool/pool';
import { closeAllTunnels } from '../pool/sshVia';
import { useBastion } from '../pool/sshTestKit';
import { MonitorHub } from './monitorHub';
import { monitorTargets } from './monitorTargets';
import { recorder } from './monitorTestKit';

const bastion = useBastion();
const PORT = 17579;
const OWN = `127.0.0.1:${PORT}`;

let hub: MonitorHub | undefined;
let pool: Pool | undefined;
afterEach(async () => {
  hub?.shutdown();
  await pool?.shutdown();
  await closeAllTunnels();
});

describe('Monitor through an SSH tunnel', () => {
  it('keeps running after the sshd is killed and restarted: a gap is marked, then lines come again', async () => {
    const b = bastion();
    await b.redis(PORT);
    const spec = ProfileDraft.parse({
      name: 'm',
      url: `redis://${OWN}`,
      ssh: { host: b.sshd.host, port: b.sshd.port, user: 'root', auth: { kind: 'key', keyFile: b.key.privateFile }, knownHostsFile: b.knownHosts },
    });
    const stored = { id: 'p', source: 'config' as const, spec };
    const p = new Pool({ resolve: (id) => (id === 'p' ? stored : undefined) });
    pool = p;
    // The runtime's own targets (a raw MONITOR socket through the tunnel); the node is the profile's own address.
    const resolve = monitorTargets({
      profile: (id) => (id === 'p' ? stored : undefined),
      metrics: { nodes: () => Promise.resolve([]), nodeOf: (_id, address) => Promise.resolve(address ?? OWN) },
      pool: p,
    });
    hub = new MonitorHub({ resolve, clientListMs: 200 });
    const r = recorder();
    await hub.watch('p', undefined, { sampleEvery: 1, hideOwn: true }, r.viewer);
    expect(await eventually(() => r.states.includes('live'), 15_000)).toBe(true);

    const write = (key: string) => b.cli(['-p', String(PORT), 'SET', key, '1']);
    const shown = (key: string) => r.lines().some((l) => l.args[0] === key);
    // "live" comes as the socket opens, a moment before the server starts feeding it: write until one shows.
    const writeUntilShown = (key: string, ms: number) => eventually(() => shown(key) || (write(key), false), ms, 250);
    expect(await writeUntilShown('before-kill', 10_000)).toBe(true);

    b.sshd.kill();
    expect(await eventually(() => r.states.includes('reconnecting'), 20_000)).toBe(true);
    // Written while the tunnel is down: this one is in the gap, not shown.
    write('while-down');
    await b.sshd.restart();

    // The session resumes by itself (no new watch): the gap is marked with both times, and new lines arrive.
    expect(await eventually(() => r.gaps.length >= 1, 30_000)).toBe(true);
    expect(r.states.at(-1)).toBe('live');
    expect(await writeUntilShown('after-restart', 15_000)).toBe(true);
    const gap = r.gaps[0]!;
    expect(gap.to).toBeGreaterThan(gap.from);
    expect(shown('while-down')).toBe(false);
    expect(r.ended).toEqual([]);
  }, 90_000);
});
