import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runKeysGet } from '../../cli/keysGetTestKit';
import { useCluster } from '../../../testing/cluster';
import { clusterSpec, sentinelSpec } from '../../../testing/profiles';
import { useSentinel } from '../../../testing/sentinel';
import { download, keysValuesRpc, type KeysValuesRpc } from './keysValuesRpcTestKit';

const b64 = (s: string | Buffer) => Buffer.from(s).toString('base64');
/** Names in many slots, some not text at all. */
const NAMES = [Buffer.from([0xff, 0x01]), Buffer.from('user:\r\n1'), Buffer.from('\u202Eorder', 'utf8'), Buffer.from('zz'), Buffer.from('list:9')];

/** Every type under hostile names, then keys.get and a first page of each through the rpc. */
async function everyTypeReads(rpc: KeysValuesRpc, profileId: string, write: Redis | Cluster): Promise<void> {
  const [s, h, l, z, x] = NAMES as [Buffer, Buffer, Buffer, Buffer, Buffer];
  await write.set(s, Buffer.from([0, 0xff, 0x0a]));
  await write.hset(h, Buffer.from([0xfe]), 'v');
  await write.rpush(l, 'a', 'b', 'c');
  await write.zadd(z, 2, 'b', 1, 'a');
  await write.xadd(x, '1-1', 'f', 'v');
  const analyst = rpc.as('analyst');
  const cases = [
    [s, 'string', { type: 'string' }],
    [h, 'hash', { type: 'hash' }],
    [l, 'list', { type: 'list', fromEnd: true, count: 2 }],
    [z, 'zset', { type: 'zset', rev: true }],
    [x, 'stream', { type: 'stream' }],
  ] as const;
  for (const [key, type, page] of cases) {
    expect(await analyst.invoke('keys.get', { profileId, key: b64(key) })).toMatchObject({ exists: true, type, key: { b64: b64(key) } });
    expect(await analyst.invoke('keys.read', { profileId, key: b64(key), page })).toMatchObject({ type });
  }
  const str = await analyst.invoke('keys.read', { profileId, key: b64(s), page: { type: 'string' } });
  expect(str.type === 'string' && Buffer.from(str.data.b64, 'base64').toString('hex')).toBe('00ff0a');
  const list = await analyst.invoke('keys.read', { profileId, key: b64(l), page: { type: 'list', fromEnd: true, count: 2 } });
  expect(list.type === 'list' && list.items.map((i) => [i.index, i.value.text])).toEqual([
    [1, 'b'],
    [2, 'c'],
  ]);
  const zset = await analyst.invoke('keys.read', { profileId, key: b64(z), page: { type: 'zset', rev: true } });
  expect(zset.type === 'zset' && zset.members.map((m) => m.member.text)).toEqual(['b', 'a']);
  const blob = Buffer.alloc(700_000, 0x5a);
  await write.set('blob', blob);
  const got = await download(analyst, { profileId, key: b64('blob') });
  expect(got.error).toBeUndefined();
  expect(got.bytes.equals(blob)).toBe(true);
}

describe('on a Redis Cluster', () => {
  const cluster = useCluster();
  let rpc: KeysValuesRpc;
  let write: Cluster;
  beforeAll(() => {
    const spec = clusterSpec(cluster().addresses);
    rpc = keysValuesRpc([{ id: 'shards', source: 'config', spec }]);
    write = new Cluster([{ host: spec.host, port: spec.port }]);
  });
  afterAll(async () => {
    write.disconnect();
    await rpc.close();
  });

  it('every type, each key on the master serving its slot; a download too', async () => {
    await everyTypeReads(rpc, 'shards', write);
  });

  it('cacheboard keys get --cluster reads a key on whichever master serves it', async () => {
    await write.rpush('cli:list', 'x', 'y');
    const { code, out } = await runKeysGet('cli:list', '--url', `redis://${cluster().addresses[0] ?? ''}`, '--cluster', '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ meta: { type: 'list', length: 2 }, page: { type: 'list', total: 2 } });
  });

  it('a DB other than 0 is refused on db', async () => {
    await expect(rpc.as('analyst').invoke('keys.get', { profileId: 'shards', db: 2, key: b64('x') })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'db',
    });
  });
});

describe('through sentinels', () => {
  const set = useSentinel();
  let rpc: KeysValuesRpc;
  let write: Redis;
  beforeAll(() => {
    rpc = keysValuesRpc([{ id: 'ha', source: 'config', spec: sentinelSpec(set()) }]);
    write = new Redis({ host: set().master.host, port: set().master.port });
  });
  afterAll(async () => {
    write.disconnect();
    await rpc.close();
  });

  it('every type, read on the master the sentinels name; a download too', async () => {
    await everyTypeReads(rpc, 'ha', write);
  });

  it('cacheboard keys get --sentinel reads on the master', async () => {
    await write.set(Buffer.from([0x63, 0x6c, 0x69, 0x3a, 0xff]), 'via sentinels');
    const { code, out } = await runKeysGet('cli:\\xff', '--sentinel', set().sentinelAddresses.join(','), '--master-name', set().masterName, '--json');
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ meta: { type: 'string', length: 13 }, page: { type: 'string', data: { text: 'via sentinels' } } });
  });
});
