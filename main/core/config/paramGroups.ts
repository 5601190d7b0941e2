import type { ConfigGroup } from '../../../app/schemas/config';

/**
 * Which section a parameter is shown in, by its name: the first rule that matches wins, so
 * `cluster-announce-tls-port` is cluster (not security) and `tls-replication` is security (not
 * replication). Rules go by the families Redis names its parameters in (redis.conf's own sections);
 * a parameter no rule names (a module's, a new one) is "others", never dropped.
 */
const RULES: ReadonlyArray<readonly [ConfigGroup, RegExp]> = [
  ['cluster', /^cluster-/],
  ['security', /^(requirepass|protected-mode|enable-(protected-configs|debug-command|module-command))$|^acl|^tls-/],
  ['replication', /^(replica|slave|repl)-|^(replicaof|slaveof|masterauth|masteruser)$|^min-(replicas|slaves)-/],
  [
    'persistence',
    /^(save|appendonly|appendfsync|appendfilename|appenddirname|dbfilename|dir|stop-writes-on-bgsave-error|no-appendfsync-on-rewrite|sanitize-dump-payload|key-load-delay)$|^(aof-|auto-aof-|rdb)/,
  ],
  [
    'memory',
    /^maxmemory|^(hash|set|zset|list|stream)-(max|node|compress)-|^(hll-sparse-max-bytes|activedefrag|activerehashing|jemalloc-bg-thread|disable-thp|active-expire-effort)$|^active-defrag-|^lazyfree-|^lfu-|^oom-score-adj/,
  ],
  [
    'clients',
    /^(maxclients|timeout|tcp-keepalive|tcp-backlog|port|bind|bind-source-addr|unixsocket|unixsocketperm|proto-max-bulk-len|tracking-table-max-keys|socket-mark-id)$|^client-|^io-threads/,
  ],
];

export function groupOf(name: string): ConfigGroup {
  for (const [group, rule] of RULES) if (rule.test(name)) return group;
  return 'others';
}

/**
 * Old names Redis 7.0 still lists beside the new ones, with the same value: shown as one row
 * under the new name. A server that lists only the old name (Redis 4) keeps it as its own row.
 */
const ALIASES: Readonly<Record<string, string>> = {
  'slave-serve-stale-data': 'replica-serve-stale-data',
  'slave-read-only': 'replica-read-only',
  'slave-priority': 'replica-priority',
  'slave-lazy-flush': 'replica-lazy-flush',
  'slave-ignore-maxmemory': 'replica-ignore-maxmemory',
  'slave-announce-ip': 'replica-announce-ip',
  'slave-announce-port': 'replica-announce-port',
  slaveof: 'replicaof',
  'repl-ping-slave-period': 'repl-ping-replica-period',
  'min-slaves-to-write': 'min-replicas-to-write',
  'min-slaves-max-lag': 'min-replicas-max-lag',
  'cluster-slave-validity-factor': 'cluster-replica-validity-factor',
  'cluster-slave-no-failover': 'cluster-replica-no-failover',
  'list-max-ziplist-size': 'list-max-listpack-size',
  'hash-max-ziplist-entries': 'hash-max-listpack-entries',
  'hash-max-ziplist-value': 'hash-max-listpack-value',
  'zset-max-ziplist-entries': 'zset-max-listpack-entries',
  'zset-max-ziplist-value': 'zset-max-listpack-value',
};

/** One node's CONFIG GET * with the old names folded into the new; `aliases` says which were folded. */
export function foldAliases(values: ReadonlyMap<string, string>): { values: Map<string, string>; aliases: Map<string, string[]> } {
  const out = new Map<string, string>();
  const aliases = new Map<string, string[]>();
  for (const [name, value] of values) {
    const current = ALIASES[name];
    if (current !== undefined && values.has(current)) {
      aliases.set(current, [...(aliases.get(current) ?? []), name]);
      continue;
    }
    out.set(name, value);
  }
  return { values: out, aliases };
}
