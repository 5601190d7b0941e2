import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { RpcClient } from '../../../app/rpcClient';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import type { RedisProcess } from '../../../testing/redis';
import { restrictedUrl, restrictedUserRules } from '../../../testing/restricted';
import { noSecretBox } from '../../core/pool/noSecretBox';
import { createRuntime, type Runtime } from '../../runtime';
import { createMemoryWirePair } from '../wireTestKit';

/**
 * Tests only: a server and a runtime whose profile `env` signs in as RESTRICTED_USER (no @admin,
 * no @dangerous, and `extraRules`), started before the file's tests; `ops()` is an ops session on it.
 */
export function useRestrictedRuntime(...extraRules: string[]): { redis: () => RedisProcess; ops: () => RpcClient } {
  const redis = useRedis();
  const dir = mkdtempSync(join(tmpdir(), 'cb-restricted-rpc-'));
  let runtime: Runtime | undefined;
  beforeAll(async () => {
    const admin = await adminClient(redis());
    await admin.call('ACL', ...restrictedUserRules(...extraRules));
    runtime = await createRuntime({ dataDir: dir, secretBox: noSecretBox('tests'), redisUrl: restrictedUrl(redis().port) });
  });
  afterAll(async () => {
    await runtime?.close();
    await closeAdmins();
    rmSync(dir, { recursive: true, force: true });
  });
  const ops = (): RpcClient => {
    if (runtime === undefined) throw new Error('useRestrictedRuntime: read ops() inside a test');
    const { server, client: end } = createMemoryWirePair();
    runtime.attach(server, { role: 'ops', user: 'ops' });
    const client = new RpcClient((m) => end.send(m));
    end.onMessage((m) => client.receive(m));
    return client;
  };
  return { redis, ops };
}
