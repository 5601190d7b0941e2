/**
 * Parameters that go by two names, newest first. Redis 7.0 lists its old `slave` and `ziplist`
 * names beside the new ones in CONFIG GET *, with the same value; Valkey 8 does the same with
 * `primaryauth`/`primaryuser` beside `masterauth`/`masteruser`. Either name reads and sets the
 * one parameter, so the Config page shows one row, compares them as one and keeps one secret.
 */
const GROUPS: readonly (readonly string[])[] = [
  ['primaryauth', 'masterauth'],
  ['primaryuser', 'masteruser'],
  ['replicaof', 'slaveof'],
  ['replica-serve-stale-data', 'slave-serve-stale-data'],
  ['replica-read-only', 'slave-read-only'],
  ['replica-priority', 'slave-priority'],
  ['replica-lazy-flush', 'slave-lazy-flush'],
  ['replica-ignore-maxmemory', 'slave-ignore-maxmemory'],
  ['replica-announce-ip', 'slave-announce-ip'],
  ['replica-announce-port', 'slave-announce-port'],
  ['repl-ping-replica-period', 'repl-ping-slave-period'],
  ['min-replicas-to-write', 'min-slaves-to-write'],
  ['min-replicas-max-lag', 'min-slaves-max-lag'],
  ['cluster-replica-validity-factor', 'cluster-slave-validity-factor'],
  ['cluster-replica-no-failover', 'cluster-slave-no-failover'],
  ['list-max-listpack-size', 'list-max-ziplist-size'],
  ['hash-max-listpack-entries', 'hash-max-ziplist-entries'],
  ['hash-max-listpack-value', 'hash-max-ziplist-value'],
  ['zset-max-listpack-entries', 'zset-max-ziplist-entries'],
  ['zset-max-listpack-value', 'zset-max-ziplist-value'],
];

const BY_NAME = new Map(GROUPS.flatMap((g) => g.map((n) => [n, g] as const)));

/** Every name of the parameter `name` is one name of, newest first; `[name]` for a parameter of one name. */
export function namesOf(name: string): readonly string[] {
  return BY_NAME.get(name.toLowerCase()) ?? [name];
}

/** Of the names in `listed`, the newest for `name`'s parameter (itself when no newer one is listed). */
export function newestListed(name: string, listed: { has(name: string): boolean }): string {
  return namesOf(name).find((n) => listed.has(n)) ?? name;
}
