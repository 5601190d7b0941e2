import { afterAll, beforeAll } from 'vitest';
import type { Alert, MetricsEvent, NodeSample } from '../../../app/schemas/metrics';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { closeAdmins, eventually, type RedisProcess } from '../../../testing/redis';
import { startReplicaSet, type ReplicaSet } from '../../../testing/replication';
import { Pool } from '../pool/pool';
import { MetricsHub } from './metricsHub';
import type { WatchOptions } from './types';

/** Test helpers for the metrics hub: pools and hubs over test servers, and a subscriber that records. */

/** A pool whose profile ids name test servers: `{ m: master, r: replica }`. */
export function poolFor(servers: Record<string, RedisProcess>, password?: string): Pool {
  const specs = Object.fromEntries(Object.entries(servers).map(([id, proc]) => [id, specFor(proc, password === undefined ? {} : { password })]));
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

type Of<K extends MetricsEvent['kind']> = Extract<MetricsEvent, { kind: K }>;

/** Test helper: a metrics.watch subscriber that keeps every event, with waits on them. */
export interface WatchRecorder {
  events: MetricsEvent[];
  stop(): void;
  ofKind<K extends MetricsEvent['kind']>(kind: K): Of<K>[];
  /** The newest sample of `address`. */
  latest(address: string): NodeSample | undefined;
  alerts(): Alert[];
  /** Wait until `check` holds over the events so far; fails the test with `what` otherwise. */
  until(what: string, check: () => boolean, timeoutMs?: number): Promise<void>;
  /** Wait for `n` more samples events. */
  ticks(n: number, timeoutMs?: number): Promise<void>;
}

export const FAST: WatchOptions = { intervalMs: 250, lagBytesThreshold: 1024 * 1024, lagSecondsThreshold: 10 };

export function record(hub: MetricsHub, connectionId: string, opts: Partial<WatchOptions> = {}): WatchRecorder {
  const events: MetricsEvent[] = [];
  const stop = hub.watch(connectionId, { ...FAST, ...opts }, (e) => events.push(e));
  const ofKind = <K extends MetricsEvent['kind']>(kind: K): Of<K>[] => events.filter((e): e is Of<K> => e.kind === kind);
  const until = async (what: string, check: () => boolean, timeoutMs = 5_000): Promise<void> => {
    if (!(await eventually(check, timeoutMs))) throw new Error(`timed out waiting for ${what}`);
  };
  return {
    events,
    stop,
    ofKind,
    latest: (address) =>
      ofKind('samples')
        .flatMap((e) => e.samples)
        .filter((s) => s.address === address)
        .at(-1),
    alerts: () => ofKind('alert').map((e) => e.alert),
    until,
    ticks: (n, timeoutMs) => {
      const target = ofKind('samples').length + n;
      return until(`${n} more ticks`, () => ofKind('samples').length >= target, timeoutMs);
    },
  };
}
