import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { adminClient, closeAdmins } from '../../testing/redis';
import { useSentinel } from '../../testing/sentinel';

const set = useSentinel({ password: 'data-pw' });
const dir = mkdtempSync(join(tmpdir(), 'cacheboard-topology-cli-'));
afterAll(async () => {
  await closeAdmins();
  rmSync(dir, { recursive: true, force: true });
});

/** The first sentinel in the URL (with the master's password and DB), the others in --sentinel. */
function viaSentinels(db: number): string[] {
  const [first, ...rest] = set().sentinelAddresses;
  return ['--url', `redis://:data-pw@${first ?? ''}/${db}`, '--sentinel', rest.join(','), '--master-name', set().masterName];
}

describe('cacheboard with --sentinel and --cluster', () => {
  it('info --sentinel starts at the master the sentinels name and finds its replicas', async () => {
    const r = await runCli(['info', '--json', ...viaSentinels(0)]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const nodes = (JSON.parse(r.out) as { nodes: Array<{ address: string; role: string }> }).nodes;
    expect(nodes[0]).toMatchObject({ address: await set().currentMaster(), role: 'master' });
    expect(nodes.map((n) => n.address).sort()).toEqual([set().master, ...set().replicas].map((p) => `127.0.0.1:${p.port}`).sort());
  });

  it("sample --sentinel counts the keys of the master's DB", async () => {
    const admin = await adminClient(set().master, { password: 'data-pw', db: 5 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => admin.set(`cli:${i}`, 'v')));
    const r = await runCli(['sample', '--full', '--json', ...viaSentinels(5)]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ method: 'census', db: 5, dbsize: 40, keys_examined: 40 });
  });

  it('load --cluster names the seeds when none answers, and says the cluster was not touched', async () => {
    const file = join(dir, 'one.resp');
    writeFileSync(file, '*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$1\r\nv\r\n');
    const r = await runCli(['load', file, '--url', 'redis://127.0.0.1:1', '--cluster', '--mode', 'merge']);
    expect(r.code).toBe(1);
    expect(r.out + r.err).toContain('cluster seeds 127.0.0.1:1: no seed node answered');
    expect(r.out + r.err).toContain('The cluster was not touched');
    expect(r.out + r.err).not.toContain('..');
  });
});
