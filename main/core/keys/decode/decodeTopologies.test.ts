import { Cluster, Redis } from 'ioredis';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCluster } from '../../../../testing/cluster';
import { clusterSpec, sentinelSpec } from '../../../../testing/profiles';
import { useSentinel } from '../../../../testing/sentinel';
import { slotOf } from '../../resp/slot';
import { decodeKit } from './decodeTestKit';

const cluster = useCluster();
const set = useSentinel();
let kit: ReturnType<typeof decodeKit>;
let writer: Cluster;

beforeAll(() => {
  const spec = clusterSpec(cluster().addresses);
  kit = decodeKit([
    { id: 'shards', source: 'config', spec },
    { id: 'ha', source: 'config', spec: sentinelSpec(set()) },
  ]);
  writer = new Cluster([{ host: spec.host, port: spec.port }]);
});
afterAll(async () => {
  writer.disconnect();
  await kit.close();
});

describe('decoding a key on a Redis Cluster', () => {
  it('reads each key from the master serving its slot', async () => {
    const keys = ['user:1', 'user:2', 'order:9'];
    // Keys on different slots, so more than one master answers.
    expect(new Set(keys.map(slotOf)).size).toBe(keys.length);
    for (const k of keys) await writer.set(k, zlib.deflateSync(JSON.stringify({ k })));
    for (const k of keys) {
      expect(await kit.decode('shards', k)).toMatchObject({ compression: 'deflate', format: 'json', text: `{\n  "k": "${k}"\n}`, error: null });
    }
    await expect(kit.decode('shards', 'k', 1)).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});

describe('decoding a key on a sentinel set', () => {
  it('reads from the master the sentinels name', async () => {
    const [host, port] = (await set().currentMaster()).split(':');
    const master = new Redis({ host, port: Number(port), lazyConnect: true });
    await master.connect();
    await master.set('ha:v', '{"where":"master"}');
    master.disconnect();
    expect(await kit.decode('ha', 'ha:v')).toMatchObject({ format: 'json', text: '{\n  "where": "master"\n}', error: null });
  });
});
