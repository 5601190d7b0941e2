import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { RESTRICTED_USER, renamedAway, restrictedUserRules } from '../../../testing/restricted';
import { readRefusal, triedCommand } from './refusal';

const renamed = useRedis(renamedAway());
const plain = useRedis();
let onRenamed: Redis;
let asUser: Redis;
let admin: Redis;

beforeAll(async () => {
  onRenamed = await adminClient(renamed());
  admin = await adminClient(plain());
  await admin.call('ACL', ...restrictedUserRules());
  asUser = await adminClient(plain());
  await asUser.call('AUTH', RESTRICTED_USER.name, RESTRICTED_USER.password);
});
afterAll(closeAdmins);

/** The server's own error for `args`, as ioredis hands it over. */
async function errorOf(client: Redis, args: string[]): Promise<unknown> {
  return client.call(args[0] ?? '', ...args.slice(1)).then(
    () => {
      throw new Error(`${args.join(' ')} was not refused`);
    },
    (err: unknown) => err,
  );
}

describe('readRefusal, from what a real server answers', () => {
  it('a command renamed away (rename-command X "") is refused under its own name', async () => {
    for (const args of [['CONFIG', 'GET', 'maxmemory'], ['BGSAVE'], ['DEBUG', 'SLEEP', '0'], ['REPLICAOF', 'NO', 'ONE']]) {
      expect(readRefusal(await errorOf(onRenamed, args), args)).toMatchObject({ command: triedCommand(args), kind: 'missing' });
    }
  });

  it('an ACL user without @admin or @dangerous is refused the command and subcommand NOPERM names', async () => {
    expect(readRefusal(await errorOf(asUser, ['INFO']))).toMatchObject({ command: 'INFO', kind: 'acl' });
    expect(readRefusal(await errorOf(asUser, ['CLIENT', 'LIST']))?.command).toBe('CLIENT LIST');
    expect(readRefusal(await errorOf(asUser, ['CONFIG', 'GET', 'save']))).toMatchObject({ command: 'CONFIG GET', message: expect.stringMatching(/^NOPERM/) });
    expect(readRefusal(await errorOf(asUser, ['MONITOR']))?.command).toBe('MONITOR');
  });

  it('an unknown subcommand is refused as what was sent', async () => {
    const args = ['CLIENT', 'NOSUCHSUB'];
    expect(readRefusal(await errorOf(admin, args), args)?.command).toBe('CLIENT NOSUCHSUB');
  });

  it('any other error is not a refusal', async () => {
    await admin.set('refusal:string', 'x');
    expect(readRefusal(await errorOf(admin, ['LPUSH', 'refusal:string', 'y']), ['LPUSH'])).toBeUndefined();
    expect(readRefusal(await errorOf(admin, ['GET']), ['GET'])).toBeUndefined();
    expect(readRefusal(new Error('Connection is closed.'), ['INFO'])).toBeUndefined();
    expect(readRefusal(new Error('LOADING Redis is loading the dataset in memory'), ['CLIENT', 'LIST'])).toBeUndefined();
  });
});
