import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../../../app/define';
import { RpcClient } from '../../../app/rpcClient';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { createRuntime, type Runtime } from '../../runtime';
import { createMemoryWirePair } from '../wireTestKit';

// Every command is slow enough to be logged.
const redis = useRedis({ args: ['--slowlog-log-slower-than', '0', '--slowlog-max-len', '256'] });
const dir = mkdtempSync(join(tmpdir(), 'cb-slowlog-rpc-'));
const SECRET = 'tok-9f3b-SECRET-value';
let runtime: Runtime;

beforeAll(async () => {
  runtime = await createRuntime({ dataDir: dir, secretBox: noSecretBox('tests'), redisUrl: redis().url });
  const admin = await adminClient(redis());
  await admin.set('session:1', SECRET, 'EX', 600);
  await admin.hset('user:7', 'token', SECRET);
  await admin.eval('return 1', 0, SECRET);
  await admin.echo(SECRET);
  await admin.rpush('list:big', ...Array.from({ length: 40 }, (_, i) => `${SECRET}-${i}`));
  await admin.config('GET', 'maxmemory');
});
afterAll(async () => {
  await runtime.close();
  await closeAdmins();
  rmSync(dir, { recursive: true, force: true });
});

function clientAs(role: Role): RpcClient {
  const { server, client: end } = createMemoryWirePair();
  runtime.attach(server, { role, user: role });
  const client = new RpcClient((m) => end.send(m));
  end.onMessage((m) => client.receive(m));
  return client;
}

describe('metrics.slowlog and roles', () => {
  it('gives an analyst the command and its key only: no value reaches the reply', async () => {
    const reply = await clientAs('analyst').invoke('metrics.slowlog', { profileId: 'env', count: 64 });
    expect(JSON.stringify(reply)).not.toContain('SECRET');
    const line = (cmd: string) => reply.slowlog.find((e) => e.args[0]?.toLowerCase() === cmd);
    expect(line('set')).toMatchObject({ args: ['set', 'session:1'], argsHidden: 3 });
    expect(line('hset')).toMatchObject({ args: ['hset', 'user:7'], argsHidden: 2 });
    // Keyless commands keep the command name only; a subcommand is not a value.
    expect(line('eval')).toMatchObject({ args: ['eval'], argsHidden: 3 });
    expect(line('echo')).toMatchObject({ args: ['echo'], argsHidden: 1 });
    expect(line('config')).toMatchObject({ args: ['config', 'GET'], argsHidden: 1 });
    // Redis keeps 32 arguments and says how many more; the count covers them all.
    expect(line('rpush')).toMatchObject({ args: ['rpush', 'list:big'], argsHidden: 40 });
  });

  it('gives ops the whole entries', async () => {
    const reply = await clientAs('ops').invoke('metrics.slowlog', { profileId: 'env', count: 64 });
    const set = reply.slowlog.find((e) => e.args[0]?.toLowerCase() === 'set');
    expect(set).toMatchObject({ args: ['set', 'session:1', SECRET, 'EX', '600'] });
    expect(set?.argsHidden).toBeUndefined();
    expect(JSON.stringify(reply)).toContain(SECRET);
  });
});
