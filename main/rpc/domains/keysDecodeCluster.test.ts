import { Cluster } from 'ioredis';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slotOf } from '../../core/resp/slot';
import { useCluster } from '../../../testing/cluster';
import { clusterSpec } from '../../../testing/profiles';
import { keysDecodeRpc } from './keysDecodeRpcTestKit';

const cluster = useCluster();
let rpc: ReturnType<typeof keysDecodeRpc>;
let writer: Cluster;

beforeAll(async () => {
  const spec = clusterSpec(cluster().addresses);
  rpc = keysDecodeRpc([{ id: 'shards', source: 'config', spec }]);
  writer = new Cluster([{ host: spec.host, port: spec.port }]);
});
afterAll(async () => {
  writer.disconnect();
  await rpc.close();
});

describe('keys.decode on a Redis Cluster', () => {
  it('reads each key from the master serving its slot', async () => {
    const keys = ['user:1', 'user:2', 'order:9'];
    // Keys on different slots, so more than one master answers.
    expect(new Set(keys.map(slotOf)).size).toBe(keys.length);
    for (const k of keys) await writer.set(k, zlib.deflateSync(JSON.stringify({ k })));
    for (const k of keys) {
      const r = await rpc.as('analyst').invoke('keys.decode', { profileId: 'shards', key: Buffer.from(k).toString('base64') });
      expect(r).toMatchObject({ compression: 'deflate', format: 'json', text: `{\n  "k": "${k}"\n}`, error: null });
    }
    await expect(rpc.as('analyst').invoke('keys.decode', { profileId: 'shards', db: 1, key: 'aw==' })).rejects.toMatchObject({ code: 'VALIDATION' });
  });
});
