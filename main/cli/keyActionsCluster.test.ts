import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { useCluster } from '../../testing/cluster';

const cluster = useCluster();
const dir = mkdtempSync(join(tmpdir(), 'cb-cli-key-actions-cluster-'));
let side: Cluster;

beforeAll(() => {
  const [host, port] = (cluster().addresses[0] ?? '').split(':');
  side = new Cluster([{ host: host ?? '127.0.0.1', port: Number(port) }]);
});
afterAll(() => {
  side.disconnect();
  rmSync(dir, { recursive: true, force: true });
});

describe('cacheboard keys delete --cluster', () => {
  it('deletes on every master with exact counts, per master in --json', async () => {
    await Promise.all(Array.from({ length: 2000 }, (_, i) => side.set(`price:eu:${i}`, 'v')));
    await Promise.all(Array.from({ length: 300 }, (_, i) => side.set(`price:us:${i}`, 'v')));
    const r = await runCli(
      ['keys', 'delete', '--url', `redis://${cluster().addresses[0] ?? ''}`, '--cluster', '--match', 'price:eu:*', '--yes', '--json'],
      undefined,
      { CACHEBOARD_DATA_DIR: dir },
    );
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { matched: number; acted: number; deleted: number; shards: { matched: number }[] };
    expect(j).toMatchObject({ matched: 2000, acted: 2000, deleted: 2000 });
    expect(j.shards).toHaveLength(3);
    expect(j.shards.reduce((a, s) => a + s.matched, 0)).toBe(2000);
    const left = await Promise.all(side.nodes('master').map((n) => n.dbsize()));
    expect(left.reduce((a, b) => a + b, 0)).toBe(300);
  });
});
