import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { readmeAclLine } from '../../../testing/readmeAcl';
import { adminClient, closeAdmins, startRedis, type RedisProcess } from '../../../testing/redis';
import { consoleRpc, onlyReply, type ConsoleRpc } from './consoleRpcTestKit';

const OPS_PW = 'ops-Secret-4410';
const ANALYST_PW = 'analyst-Secret-2231';
let redis: RedisProcess;
let admin: Redis;
let rpc: ConsoleRpc;

beforeAll(async () => {
  redis = await startRedis({ password: OPS_PW });
  admin = await adminClient(redis, { password: OPS_PW });
  await admin.call('ACL', 'SETUSER', ...readmeAclLine(ANALYST_PW));
  await admin.set('user:1', 'v');
  rpc = consoleRpc([
    {
      id: 'p',
      source: 'config',
      spec: specFor(redis, { password: OPS_PW }),
      analyst: { username: 'cb-analyst', password: ANALYST_PW },
    },
  ]);
});
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
  await redis.stop();
});

describe("an analyst's console", () => {
  it('is refused a write by our server (FORBIDDEN, naming its categories), which never reaches Redis', async () => {
    const before = Number((await admin.info('stats')).match(/total_commands_processed:(\d+)/)?.[1]);
    const e = await rpc.refusal('analyst', { line: 'SET user:1 changed' });
    expect(e).toMatchObject({ code: 'FORBIDDEN', message: expect.stringMatching(/^Analysts may run only @read commands; SET is in .*@write/) });
    expect(await admin.get('user:1')).toBe('v');
    expect(rpc.audit().at(-1)).toMatchObject({ user: 'analyst-user', action: 'console', outcome: 'refused', detail: expect.stringMatching(/^SET "user:1"/) });
    // Only the admin's own INFO and GET reached the server since.
    const after = Number((await admin.info('stats')).match(/total_commands_processed:(\d+)/)?.[1]);
    expect(after - before).toBeLessThanOrEqual(3);
  });

  it('runs reads as the profile\'s analyst ACL user, and a read that user may not run comes back as NOPERM from Redis', async () => {
    const who = await rpc.done('analyst', { line: 'ACL WHOAMI' }).catch((e: Error) => e);
    // ACL WHOAMI is not @read: the analyst may not even ask; GET is, and runs as cb-analyst.
    expect(who).toMatchObject({ code: 'FORBIDDEN' });
    expect(onlyReply(await rpc.done('analyst', { line: 'GET user:1' }))).toEqual({ t: 'bulk', v: 'v', bytes: 1 });
    const list = String(await admin.client('LIST')).split('\n').filter((l) => l.includes('name=cacheboard:console:p'));
    expect(list.map((l) => /user=(\S+)/.exec(l)?.[1])).toContain('cb-analyst');
    // KEYS is @read, so our server lets it through; the README's ACL takes @dangerous away, so Redis refuses it.
    const keys = await rpc.confirmed('analyst', { line: 'KEYS *' });
    const reply = onlyReply(keys);
    expect(reply).toMatchObject({ t: 'error', v: expect.stringMatching(/^NOPERM /) });
    expect(keys.replies[0]?.hint).toContain('"cb-analyst"');
  });

  it('runs the same write for ops, as the profile\'s own user', async () => {
    await rpc.done('ops', { line: 'SET user:1 changed' });
    expect(await admin.get('user:1')).toBe('changed');
  });
});
