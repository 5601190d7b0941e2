import { afterAll, beforeAll } from 'vitest';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { closeAdmins, type RedisProcess } from '../../../testing/redis';
import { startReplicaSet, type ReplicaSet } from '../../../testing/replication';
import { Pool } from '../pool/pool';
import { MetricsHub } from './metricsHub';

/** A pool whose profile ids name test servers: `{ m: master, r: replica }`. */
export function poolFor(servers: Record<string, RedisProcess>, password?: string): Pool {
  const specs = Object.fromEntries(
    Object.entries(servers).map(([id, proc]) => [id, specFor(proc, password === undefined ? {} : { password })]),
  );
  return new Pool({ ...profileRegistry(specs) });
}

export interface HubFixture {
  set: ReplicaSet;
  pool: Pool;
  hub: MetricsHub;
}

/**
 * A master with `replicas` replicas, a pool whose profile `m` is the master, and a hub
 * over it: started before the file's tests, stopped after. The fields are set once
 * beforeAll has run, so read them inside tests.
 */
export function useHubOnReplicaSet(opts: { replicas: number; args?: string[] }): HubFixture {
  const fx = {} as HubFixture;
  beforeAll(async () => {
    fx.set = await startReplicaSet(opts);
    fx.pool = poolFor({ m: fx.set.master });
    fx.hub = new MetricsHub({ pool: fx.pool });
  });
  afterAll(async () => {
    await fx.hub?.shutdown();
    await fx.pool?.shutdown();
    await closeAdmins();
    await fx.set?.stop();
  });
  return fx;
}
