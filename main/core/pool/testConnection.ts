import { Redis } from 'ioredis';
import { performance } from 'node:perf_hooks';
import { AppError } from '../../../app/errors';
import { formatHostPort } from '../../../app/hostPort';
import { serverIdentity } from '../redis/serverIdentity';
import { parseInfo } from '../info/parseInfo';
import { closeRedis } from './closeRedis';
import { seedTlsRefusal } from './clusterSeedTls';
import { connectReady } from './connectReady';
import { toRedisOptions } from './connectionOptions';
import { contextOf, toAppError } from './redisErrors';
import { currentMasterSpec } from './sentinels';
import { hostKeyOf, sshAppError } from './sshErrors';
import { prepareSsh, viaFor, type Via } from './sshVia';
import { testCluster } from './testCluster';
import type { ProfileSpec, TestResult } from './types';

/**
 * Connect a throwaway client (no retries, short timeouts), AUTH, PING, and
 * read version/role/mode from INFO. Never throws; always closes the client.
 * A user whose ACL lacks INFO still passes: PING proved the login works.
 * A sentinel profile first asks the sentinels for the master (so a wrong
 * master name or sentinel password is named as such), then tests that master;
 * a cluster profile is tested through an ioredis Cluster (testCluster).
 */
export async function testConnection(spec: ProfileSpec, connectTimeoutMs: number): Promise<TestResult> {
  if (spec.ssh === undefined) return testThrough(spec, connectTimeoutMs, undefined);
  let via: Via | undefined;
  try {
    await prepareSsh(spec);
    via = viaFor(spec);
    // The SSH chain first, so an unknown or changed host key, or a refused login, is named as such.
    await via?.ready();
    return await testThrough(spec, connectTimeoutMs, via);
  } catch (err) {
    const hostKey = hostKeyOf(err);
    return { ok: false, error: (sshAppError(err) ?? toAppError(err)).toInfo(), ...(hostKey === undefined ? {} : { sshHostKey: hostKey }) };
  } finally {
    via?.release();
  }
}

async function testThrough(spec: ProfileSpec, connectTimeoutMs: number, via: Via | undefined): Promise<TestResult> {
  if (spec.topology?.kind === 'cluster') {
    const result = await testCluster(spec, connectTimeoutMs, via);
    if (result.error?.code !== 'UNREACHABLE') return result;
    const refusal = await seedTlsRefusal(spec, connectTimeoutMs, via);
    return refusal === undefined ? result : { ok: false, error: refusal.toInfo() };
  }
  if (spec.topology?.kind === 'sentinel') {
    let master: ProfileSpec;
    try {
      master = await currentMasterSpec(spec, connectTimeoutMs, via);
    } catch (err) {
      return { ok: false, error: toAppError(err).toInfo() };
    }
    const result = await testServer(master, connectTimeoutMs, via);
    return { ...result, mode: 'sentinel', master: formatHostPort(master) };
  }
  return testServer(spec, connectTimeoutMs, via);
}

async function testServer(spec: ProfileSpec, connectTimeoutMs: number, via: Via | undefined): Promise<TestResult> {
  let redis: Redis | undefined;
  try {
    const client = new Redis(toRedisOptions(spec, 'test', { connectTimeoutMs, connectionName: 'cacheboard:test', via }));
    redis = client;
    // Errors are reported through connectReady and command rejections; without a
    // listener ioredis would print every one of them to the console.
    client.on('error', () => undefined);
    await connectReady(client, connectTimeoutMs);
    const t0 = performance.now();
    await client.ping();
    const latencyMs = Math.round((performance.now() - t0) * 100) / 100;
    const result: TestResult = { ok: true, latencyMs };
    const info = await Promise.all([client.info('server'), client.info('replication')]).catch((err: unknown) => {
      const mapped = toAppError(err, contextOf(client));
      if (mapped.code === 'NOPERM') return undefined;
      throw mapped;
    });
    if (info !== undefined) {
      const s = parseInfo(info.join('\r\n'));
      const id = serverIdentity(s['server']);
      const role = s['replication']?.['role'];
      if (id.version !== '') {
        result.serverVersion = id.version;
        result.serverName = id.name;
      }
      if (id.mode !== '') result.mode = id.mode;
      if (role !== undefined) result.role = role;
    }
    return result;
  } catch (err) {
    const e = err instanceof AppError ? err : redis === undefined ? new AppError('INTERNAL', String(err)) : toAppError(err, contextOf(redis));
    return { ok: false, error: e.toInfo() };
  } finally {
    if (redis !== undefined) await closeRedis(redis);
  }
}
