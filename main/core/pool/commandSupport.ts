import type { Cluster, Redis } from 'ioredis';

/**
 * Whether a server has a command, asked with COMMAND INFO (a name the server does not know
 * answers nil), never read from a version string: Valkey, forks and managed services add,
 * rename or hide commands whatever version they report. A refused COMMAND (an ACL) counts as
 * "no": a page then keeps to what every server has.
 *
 * Answers are kept per client for a minute, so a page's reads do not each ask again, and a
 * server upgraded in place (a failover to a newer replica) is seen soon after.
 */
const KEEP_MS = 60_000;

/**
 * COMMAND INFO of one name read as "the server has it": an entry (an array) is there; nil, or
 * anything else (an error over a raw connection), is not. Every transport reads it so.
 */
export function commandInfoHas(reply: unknown): boolean {
  return Array.isArray(reply) && Array.isArray(reply[0]);
}

/**
 * The command that marks hash-field expiration (Redis 7.4+, Valkey 9), which comes with all of
 * HTTL, HPTTL, HPEXPIRETIME, HEXPIRE and HPERSIST: asked of ioredis clients here and of the
 * sampler's raw pipes (sampling/shards.ts), so both decide the one way.
 */
export const FIELD_TTLS_COMMAND = 'HPEXPIRETIME';
const known = new WeakMap<Redis | Cluster, Map<string, { at: number; has: Promise<boolean> }>>();

export function hasCommand(client: Redis | Cluster, name: string): Promise<boolean> {
  let byName = known.get(client);
  if (byName === undefined) {
    byName = new Map();
    known.set(client, byName);
  }
  const key = name.toLowerCase();
  const hit = byName.get(key);
  if (hit !== undefined && Date.now() - hit.at < KEEP_MS) return hit.has;
  const has = client.call('COMMAND', 'INFO', key).then(commandInfoHas, () => false);
  byName.set(key, { at: Date.now(), has });
  return has;
}

/** Hash-field expiration (Redis 7.4+, Valkey 9): HTTL, HPEXPIRETIME, HEXPIRE, HPERSIST. */
export function hasFieldTtls(client: Redis | Cluster): Promise<boolean> {
  return hasCommand(client, FIELD_TTLS_COMMAND);
}
