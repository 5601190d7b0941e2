import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { ELASTICACHE_DISABLED, RESTRICTED_USER, renamedAway, restrictedUserRules } from '../../../testing/restricted';
import { encodeCommand } from '../resp/encodeCommand';
import { connectionFor } from '../resp/rawTarget';
import { RespPipe } from '../resp/respPipe';
import { commandInfoHas, FIELD_TTLS_COMMAND, hasCommand, hasFieldTtls, mayRun, RefusalMemory, refusals } from './commandSupport';

const redis = useRedis();
let admin: Redis;
let limited: Redis;

beforeAll(async () => {
  admin = await adminClient(redis());
  await admin.call('ACL', 'SETUSER', 'nocommand', 'on', '>pw', '~*', '+@all', '-command');
  limited = await adminClient(redis());
  await limited.call('AUTH', 'nocommand', 'pw');
});
afterAll(closeAdmins);

it('knows a command by COMMAND INFO, and a name the server lacks as missing', async () => {
  expect(await hasCommand(admin, 'GET')).toBe(true);
  expect(await hasCommand(admin, 'NOSUCHCOMMAND')).toBe(false);
});

it("answers hash-field expiration by the server's own command table, whatever its version", async () => {
  const info = (await admin.call('COMMAND', 'INFO', 'HPEXPIRETIME')) as unknown[];
  expect(await hasFieldTtls(admin)).toBe(info[0] !== null);
});

it('a profile refused COMMAND is told "no", not an error', async () => {
  expect(await hasCommand(limited, 'GET')).toBe(false);
});

it('reads a COMMAND INFO reply over a raw pipe (the sampler) as over ioredis', async () => {
  const pipe = new RespPipe(await connectionFor(specFor(redis()), 0, 'cacheboard:test').connect(), { host: '127.0.0.1', port: redis().port });
  try {
    const ask = async (name: string) => commandInfoHas((await pipe.send(encodeCommand(['COMMAND', 'INFO', name]), 1))[0]);
    expect(await ask('GET')).toBe(true);
    expect(await ask('NOSUCHCOMMAND')).toBe(false);
    expect(await ask(FIELD_TTLS_COMMAND)).toBe(await hasFieldTtls(admin));
  } finally {
    pipe.destroy();
  }
});

describe('what a restricted profile may run', () => {
  const renamed = useRedis(renamedAway());
  const acl = useRedis();
  let onRenamed: Redis;
  let user: Redis;
  let userWithDryRun: Redis;

  beforeAll(async () => {
    onRenamed = await adminClient(renamed());
    const side = await adminClient(acl());
    await side.call('ACL', ...restrictedUserRules());
    await side.call('ACL', 'SETUSER', 'dry', 'on', '>pw', '~*', '&*', '+@all', '-@admin', '-@dangerous', '+acl|dryrun', '+acl|whoami');
    user = await adminClient(acl());
    await user.call('AUTH', RESTRICTED_USER.name, RESTRICTED_USER.password);
    userWithDryRun = await adminClient(acl());
    await userWithDryRun.call('AUTH', 'dry', 'pw');
  });

  it('every command ElastiCache disables is missing on a server that renamed them away, and GET is there', async () => {
    for (const c of ELASTICACHE_DISABLED) expect(await mayRun(onRenamed, [c]), c).toBe(false);
    expect(await mayRun(onRenamed, ['CONFIG', 'GET', 'maxmemory'])).toBe(false);
    expect(await mayRun(onRenamed, ['GET', 'k'])).toBe(true);
  });

  it('ACL DRYRUN answers for a user who may ask it: no CONFIG, INFO, MONITOR or CLIENT KILL, yes GET', async () => {
    expect(await mayRun(userWithDryRun, ['CONFIG', 'GET', 'maxmemory'])).toBe(false);
    expect(await mayRun(userWithDryRun, ['INFO'])).toBe(false);
    expect(await mayRun(userWithDryRun, ['MONITOR'])).toBe(false);
    expect(await mayRun(userWithDryRun, ['CLIENT', 'KILL', 'ID', '1'])).toBe(false);
    expect(await mayRun(userWithDryRun, ['GET', 'k'])).toBe(true);
  });

  it('a user refused DRYRUN learns from the first refusal, remembered for the profile', async () => {
    const memory = new RefusalMemory();
    const err = await user.call('CONFIG', 'GET', 'maxmemory').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(memory.note('p1', err, ['CONFIG', 'GET', 'maxmemory'])?.command).toBe('CONFIG GET');
    expect(memory.refused('p1', 'config get')?.message).toMatch(/^NOPERM/);
    expect(memory.refused('p2', 'CONFIG GET')).toBeUndefined();
    expect(memory.note('p1', new Error('Connection is closed.'), ['INFO'])).toBeUndefined();
    expect(memory.all('p1').map((r) => r.command)).toEqual(['CONFIG GET']);

    const profile = `refused-${Date.now()}`;
    expect(await mayRun(user, ['CONFIG', 'GET', 'maxmemory'], profile)).toBe(true);
    refusals.note(profile, err, ['CONFIG', 'GET', 'maxmemory']);
    expect(await mayRun(user, ['CONFIG', 'GET', 'maxmemory'], profile)).toBe(false);
    refusals.forget(profile);
  });
});
