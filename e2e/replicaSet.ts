import { startReplicaSet, type ReplicaSet } from '../testing/replication';
import { test } from './redisFixture';

/**
 * A master with `replicas` replicas of its own for each test of the describe block that
 * calls this (at collection time), stopped after it.
 */
export function useReplicaSet(replicas: number): () => ReplicaSet {
  let set: ReplicaSet | undefined;
  test.beforeEach(async () => {
    set = await startReplicaSet({ replicas });
  });
  test.afterEach(async () => {
    // Unset when the test was skipped before its beforeEach (the electron project without a binary).
    await set?.stop();
    set = undefined;
  });
  return () => {
    if (set === undefined) throw new Error('useReplicaSet(): the servers are only there inside tests');
    return set;
  };
}
