import { Cluster } from 'ioredis';
import { performance } from 'node:perf_hooks';
import { serverIdentity } from '../redis/serverIdentity';
import { parseInfo } from '../info/parseInfo';
import { closeRedis } from './closeRedis';
import { parseClusterNodes } from './clusterNodes';
import { toClusterOptions } from './clusterOptions';
import { connectReady } from './connectReady';
import { toAppError, type ErrorContext } from './redisErrors';
import type { Via } from './sshVia';
import { entryPoints } from './topology';
import type { ProfileSpec, TestResult } from './types';

/**
 * Connect a throwaway Cluster client to the seeds, PING, and report the
 * version and mode (INFO server), cluster_state (CLUSTER INFO) and the masters
 * serving slots (CLUSTER NODES). Never throws; always closes the client. No
 * ready check: a cluster whose state is fail is reachable, and the result says
 * its state rather than failing to connect.
 */
export async function testCluster(spec: ProfileSpec, connectTimeoutMs: number, via?: Via): Promise<TestResult> {
  const { seeds, options } = toClusterOptions(spec, 'test', { connectTimeoutMs, connectionName: 'cacheboard:test', via });
  const cluster = new Cluster(seeds, { ...options, enableReadyCheck: false });
  const ctx: ErrorContext = { label: `cluster seeds ${entryPoints(spec).join(', ')}`, connectTimeoutMs };
  if (spec.password !== undefined) ctx.password = spec.password;
  // Errors are reported through connectReady and command rejections, not printed.
  cluster.on('error', () => undefined);
  cluster.on('node error', () => undefined);
  try {
    await connectReady(cluster, connectTimeoutMs, ctx);
    const t0 = performance.now();
    await cluster.ping();
    const latencyMs = Math.round((performance.now() - t0) * 100) / 100;
    const [server, state, nodes] = await Promise.all([
      cluster.info('server').then((text) => parseInfo(text)['server'] ?? {}),
      cluster.call('CLUSTER', 'INFO').then((text) => parseInfo(`# cluster\r\n${String(text)}`)['cluster'] ?? {}),
      cluster.call('CLUSTER', 'NODES').then((text) => parseClusterNodes(String(text))),
    ]);
    const result: TestResult = {
      ok: true,
      latencyMs,
      masters: nodes.filter((n) => n.role === 'master' && (n.slots?.length ?? 0) > 0).map((n) => n.address),
    };
    const id = serverIdentity(server);
    if (id.version !== '') {
      result.serverVersion = id.version;
      result.serverName = id.name;
    }
    if (id.mode !== '') result.mode = id.mode;
    if (state['cluster_state'] !== undefined) result.clusterState = state['cluster_state'];
    return result;
  } catch (err) {
    return { ok: false, error: toAppError(err, ctx).toInfo() };
  } finally {
    await closeRedis(cluster);
  }
}
