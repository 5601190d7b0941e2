import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentinelSpec } from '../../../../testing/profiles';
import { eventually } from '../../../../testing/redis';
import { useSentinel } from '../../../../testing/sentinel';
import { consoleCore, onlyReply, type ConsoleCore } from '../consoleTestKit';

const set = useSentinel({ password: 'data-pw' });
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;
let core: ConsoleCore;

beforeAll(() => {
  core = consoleCore([{ id: 'p', source: 'config', spec: sentinelSpec(set(), { password: 'data-pw' }) }]);
});
afterAll(async () => {
  await core.close();
});

describe('the console on a sentinel profile', () => {
  it('lists the master and its replicas as targets, not the sentinels', async () => {
    const { topology, nodes } = await core.targets('analyst');
    expect(topology).toBe('sentinel');
    expect(nodes[0]).toEqual({ address: addr(set().master), role: 'master' });
    expect(nodes.slice(1).map((n) => [n.role, n.master])).toEqual([
      ['replica', addr(set().master)],
      ['replica', addr(set().master)],
    ]);
  });

  it('sends a command to the current master, before and after a failover', async () => {
    const before = await core.done('ops', { line: 'SET where before' });
    expect(before.replies).toMatchObject([{ address: addr(set().master), role: 'master', reply: { v: 'OK' } }]);

    const sentinel = await set().sentinelClient(0);
    try {
      expect(await sentinel.call('SENTINEL', 'FAILOVER', set().masterName)).toBe('OK');
    } finally {
      sentinel.disconnect();
    }
    expect(await eventually(async () => (await set().currentMaster()) !== addr(set().master), 20_000, 100)).toBe(true);
    const promoted = await set().currentMaster();
    // The sentinels name the promoted replica once it is a master: the next line goes there, not where the console last wrote.
    const after = await core.done('ops', { line: 'SET where after' });
    expect(after.replies).toMatchObject([{ address: promoted, role: 'master', reply: { v: 'OK' } }]);
    const [host, port] = promoted.split(':');
    const direct = new Redis({ host, port: Number(port), password: 'data-pw', lazyConnect: true });
    try {
      await direct.connect();
      expect(await direct.get('where')).toBe('after');
    } finally {
      direct.disconnect();
    }
    const role = onlyReply(await core.confirmed('ops', { line: 'ROLE' }));
    expect(role.t === 'array' ? role.items[0] : role).toMatchObject({ t: 'bulk', v: 'master' });
  }, 60_000);
});
