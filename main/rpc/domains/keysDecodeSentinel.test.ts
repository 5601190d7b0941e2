import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseHostPort } from '../../../app/hostPort';
import { specFor } from '../../../testing/profiles';
import { useSentinel } from '../../../testing/sentinel';
import { keysDecodeRpc } from './keysDecodeRpcTestKit';

const set = useSentinel();
let rpc: ReturnType<typeof keysDecodeRpc>;

beforeAll(() => {
  const sentinels = set().sentinelAddresses.map((a) => {
    const at = parseHostPort(a, 26379);
    if ('error' in at) throw new Error(at.error);
    return at;
  });
  const first = sentinels[0] ?? { host: '127.0.0.1', port: 1 };
  rpc = keysDecodeRpc([{ id: 'ha', source: 'config', spec: specFor(first, { name: 'ha', topology: { kind: 'sentinel', sentinels, masterName: set().masterName } }) }]);
});
afterAll(() => rpc.close());

describe('keys.decode on a sentinel set', () => {
  it('reads from the master the sentinels name', async () => {
    const [host, port] = (await set().currentMaster()).split(':');
    const master = new Redis({ host, port: Number(port), lazyConnect: true });
    await master.connect();
    await master.set('ha:v', '{"where":"master"}');
    master.disconnect();
    const r = await rpc.as('analyst').invoke('keys.decode', { profileId: 'ha', key: Buffer.from('ha:v').toString('base64') });
    expect(r).toMatchObject({ format: 'json', text: '{\n  "where": "master"\n}', error: null });
  });
});
