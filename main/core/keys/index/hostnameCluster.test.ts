import { describe, expect, it } from 'vitest';
import { useHostnameCluster } from '../../../../testing/hostnameCluster';
import { buildIndex } from './buildIndex';
import { indexTargets, keysReader } from './indexTargets';
import { KeyIndex } from './keyIndex';

const fx = useHostnameCluster();
const KEYS = 600;

describe('keys of a TLS cluster whose nodes announce a hostname', () => {
  it('walks every master: the tree counts every key, and the find and folder calls read all three', async () => {
    const { pool, spec, cluster } = fx();
    const c = await pool.cluster('h');
    await Promise.all(Array.from({ length: KEYS }, (_, i) => c.set(`walk:${i % 7}:${i}`, 'v')));

    const masters = await pool.masters('h');
    expect(masters).toHaveLength(3);
    expect(masters.map((m) => Number(m.address.split(':').at(-1))).sort()).toEqual(cluster.masters.map((m) => m.port).sort());

    const targets = await indexTargets(pool, 'h', spec, 0);
    const index = new KeyIndex(Buffer.from(':'), 16 * 1024 * 1024);
    const end = await buildIndex(targets('cacheboard:keys:test'), index, () => undefined, new AbortController().signal);
    expect(end.kind).toBe('done');
    expect(index.state.scanned).toBe(KEYS);

    const readers = await keysReader(pool, 'h', spec, 0).masters();
    const sizes = await Promise.all(readers.map((r) => r.dbsize()));
    expect(sizes).toHaveLength(3);
    expect(sizes.every((n) => n > 0)).toBe(true);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(KEYS);
  });
});
