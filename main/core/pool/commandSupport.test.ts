import type { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { encodeCommand } from '../resp/encodeCommand';
import { connectionFor } from '../resp/rawTarget';
import { RespPipe } from '../resp/respPipe';
import { commandInfoHas, FIELD_TTLS_COMMAND, hasCommand, hasFieldTtls } from './commandSupport';

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
