import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCluster } from '../../../../testing/cluster';
import { clusterSpec } from '../../../../testing/profiles';
import { adminClient, closeAdmins, type RedisProcess } from '../../../../testing/redis';
import { actionRunKit } from './actionRunTestKit';

/*
 * A cluster master that answers CLUSTERDOWN for a moment (as a cluster does in a failover's
 * window, before every node knows where a slot lives now) while a bulk delete acts on its keys:
 * the keys it refused are tried again, after a pause, until it serves them, so the run ends
 * with every key deleted and no error. The moment is made by the master giving up one of its
 * slots (CLUSTER DELSLOTS: with full coverage required, it refuses every key) and taking it
 * back 400 ms later, while the page's scripts are on their way.
 */

const cluster = useCluster();
let kit: ReturnType<typeof actionRunKit>;
let side: Cluster;

beforeAll(() => {
  kit = actionRunKit([{ id: 'shards', source: 'config', spec: clusterSpec(cluster().addresses) }]);
  const [host, port] = (cluster().addresses[0] ?? '').split(':');
  side = new Cluster([{ host: host ?? '127.0.0.1', port: Number(port) }]);
});
afterAll(async () => {
  side.disconnect();
  await kit.close();
  await closeAdmins();
});

/** The master serving `key`'s slot (as the side client's slot map says), and the slot. */
async function ownerOf(key: Buffer): Promise<{ node: RedisProcess; slot: number }> {
  const slot = Number(await side.call('CLUSTER', 'KEYSLOT', key));
  const port = Number((side.slots[slot]?.[0] ?? '').split(':')[1]);
  const node = cluster().nodes.find((p) => p.port === port);
  if (node === undefined) throw new Error(`no master serves slot ${slot}`);
  return { node, slot };
}

describe('bulk delete on a cluster whose master answers CLUSTERDOWN for a moment', () => {
  it('tries the refused keys again until they are served: every key deleted, none an error', async () => {
    const n = 3_000;
    await Promise.all(Array.from({ length: n }, (_, i) => side.set(`gone:${i}`, 'v')));
    await Promise.all(Array.from({ length: 500 }, (_, i) => side.set(`kept:${i}`, 'v')));
    let down = false;
    let restored: Promise<unknown> = Promise.resolve();
    const end = await kit.run('shards', {
      selection: { match: Buffer.from('gone:*').toString('base64') },
      action: { op: 'delete' },
      dryRun: false,
      // The first page with keys: its master stops serving before the page's scripts reach it.
      beforeAct: async (keys) => {
        const [first] = keys;
        if (down || first === undefined) return;
        down = true;
        const { node, slot } = await ownerOf(Buffer.from(first));
        const admin = await adminClient(node);
        expect(await admin.call('CLUSTER', 'DELSLOTS', String(slot))).toBe('OK');
        restored = new Promise((resolve) => setTimeout(resolve, 400)).then(() => admin.call('CLUSTER', 'ADDSLOTS', String(slot)));
      },
    });
    await restored;
    expect(down).toBe(true);
    expect(end).toMatchObject({ kind: 'done', report: { matched: n, acted: n, skipped: 0, errors: 0, errorSamples: [] } });
    let left = 0;
    for (const node of side.nodes('master')) left += (await node.keys('gone:*')).length;
    expect(left).toBe(0);
    let kept = 0;
    for (const node of side.nodes('master')) kept += (await node.keys('kept:*')).length;
    expect(kept).toBe(500);
  }, 60_000);
});
