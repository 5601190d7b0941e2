import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentinelSpec } from '../../../testing/profiles';
import { useSentinel } from '../../../testing/sentinel';
import { keysDecodeRpc } from './keysDecodeRpcTestKit';

const set = useSentinel();
let rpc: ReturnType<typeof keysDecodeRpc>;

beforeAll(() => {
  rpc = keysDecodeRpc([{ id: 'ha', source: 'config', spec: sentinelSpec(set()) }]);
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
