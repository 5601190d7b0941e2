import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, startRedis, type RedisProcess } from '../../../testing/redis';
import { consoleRpc, type ConsoleRpc } from './consoleRpcTestKit';

let redis: RedisProcess;
let admin: Redis;
let rpc: ConsoleRpc;

beforeAll(async () => {
  redis = await startRedis();
  admin = await adminClient(redis);
  rpc = consoleRpc([{ id: 'p', source: 'config', spec: specFor(redis) }]);
});
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
  await redis.stop();
});

const SECRETS = ['auth-Secret-1', 'setuser-Secret-2', 'requirepass-Secret-3', 'masterauth-Secret-4'];

describe('secrets typed into the console', () => {
  it('are kept out of the history and the audit log, and the commands still run', async () => {
    const auth = await rpc.done('ops', { line: `AUTH someone ${SECRETS[0]}` });
    expect(auth.line).not.toContain(SECRETS[0]);
    expect(auth.replies[0]?.reply).toMatchObject({ t: 'error', v: expect.stringMatching(/^WRONGPASS/) });

    await rpc.confirmed('ops', { line: `ACL SETUSER console-user on >${SECRETS[1]} ~* +@all` });
    expect(await admin.call('ACL', 'WHOAMI')).toBe('default');
    expect(String(await admin.call('ACL', 'LIST'))).toContain('user console-user on');

    await rpc.confirmed('ops', { line: `CONFIG SET requirepass ${SECRETS[2]}` });
    expect(await admin.config('GET', 'requirepass')).toEqual(['requirepass', SECRETS[2]]);
    // The console's connection stays signed in: put the server back.
    await rpc.confirmed('ops', { line: 'CONFIG SET requirepass ""' });
    await rpc.confirmed('ops', { line: `config set masterauth "${SECRETS[3]}"` });

    const history = await rpc.history('ops');
    expect(history).toHaveLength(5);
    expect(history.every((l) => l.includes('(redacted)'))).toBe(true);
    for (const secret of SECRETS) {
      expect(history.join('\n')).not.toContain(secret);
      expect(rpc.auditBytes().includes(secret)).toBe(false);
    }
    // The audit log still says what ran: the command's name.
    const details = rpc.audit().filter((e) => e.action === 'console').map((e) => e.detail);
    expect(details).toEqual(expect.arrayContaining(['ACL SETUSER', 'CONFIG SET']));
  });

  it("keeps each user's history apart, newest last", async () => {
    await rpc.done('analyst', { line: 'GET a' });
    await rpc.done('analyst', { line: 'GET b' });
    expect(await rpc.history('analyst')).toEqual(['GET a', 'GET b']);
    expect(await rpc.history('ops')).not.toContain('GET a');
  });
});
