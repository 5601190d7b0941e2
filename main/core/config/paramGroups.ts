import { namesOf, newestListed } from '../text/configAliases';
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

/** The section of a parameter, by the first of its names (configAliases.ts) a rule knows. */
export function groupOf(name: string): ConfigGroup {
  for (const n of namesOf(name)) for (const [group, rule] of RULES) if (rule.test(n)) return group;
  return 'others';
}

/**
 * One node's CONFIG GET * with each old name folded into the newest name of its parameter the
 * node also lists (configAliases.ts: Redis 7's slave-*, Valkey's masterauth beside primaryauth):
 * one row under the new name; `aliases` says which were folded. A server that lists only the
 * old name (Redis 4) keeps it here (configView names the row across nodes).
 */
export function foldAliases(values: ReadonlyMap<string, string>): { values: Map<string, string>; aliases: Map<string, string[]> } {
  const out = new Map<string, string>();
  const aliases = new Map<string, string[]>();
  for (const [name, value] of values) {
    const current = newestListed(name, values);
    if (current !== name) {
      aliases.set(current, [...(aliases.get(current) ?? []), name]);
      continue;
    }
    out.set(name, value);
  }
  return { values: out, aliases };
}
