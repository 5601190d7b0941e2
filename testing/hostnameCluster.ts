import { afterAll, beforeAll } from 'vitest';
import { Pool } from '../main/core/pool/pool';
import type { ProfileSpec } from '../main/core/pool/types';
import { startCluster, type TestCluster } from './cluster';
import { clusterSpec, profileRegistry } from './profiles';
import { makeTlsFiles, type TlsFiles } from './tls';

/** The name the nodes announce: it resolves everywhere, and the test certificate names it. */
export const ANNOUNCED = 'localhost';

export interface HostnameCluster {
  cluster: TestCluster;
  tls: TlsFiles;
  /** A pool holding profile "h": the cluster over TLS, verified against the test CA. */
  pool: Pool;
  spec: ProfileSpec;
}

/**
 * Three TLS-only masters that announce themselves as `localhost` (cluster-announce-hostname,
 * cluster-preferred-endpoint-type hostname): CLUSTER SLOTS and MOVED then name "localhost"
 * where other clusters give an IP, the setup where RedisInsight counts 0 primaries
 * (redis/RedisInsight#5722). Started in beforeAll, stopped in afterAll.
 */
export function useHostnameCluster(): () => HostnameCluster {
  let made: HostnameCluster | undefined;
  let tls: TlsFiles | undefined;
  beforeAll(async () => {
    tls = makeTlsFiles();
    const cluster = await startCluster({ tls, announceHostname: ANNOUNCED, replicas: 0 });
    const spec = clusterSpec(cluster.addresses, { tls: { enabled: true, caFile: tls.caFile, rejectUnauthorized: true } });
    made = { cluster, tls, spec, pool: new Pool(profileRegistry({ h: spec })) };
  }, 60_000);
  afterAll(async () => {
    await made?.pool.shutdown();
    await made?.cluster.stop();
    tls?.remove();
  });
  return () => {
    if (made === undefined) throw new Error('useHostnameCluster(): only available inside tests and hooks');
    return made;
  };
}
