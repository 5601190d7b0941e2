import type { SpawnRedisOptions } from './redis';

/**
 * The commands ElastiCache disables (its documentation's list, PSYNC with SYNC): a server started
 * with these renamed to "" answers them as unknown, as the managed service does.
 */
export const ELASTICACHE_DISABLED = [
  'BGREWRITEAOF',
  'BGSAVE',
  'CONFIG',
  'DEBUG',
  'MIGRATE',
  'REPLICAOF',
  'SAVE',
  'SLAVEOF',
  'SHUTDOWN',
  'SYNC',
  'PSYNC',
] as const;

/** useRedis()/startRedis() options for a server without ELASTICACHE_DISABLED (`--rename-command X ""`). */
export function renamedAway(extra: SpawnRedisOptions = {}): SpawnRedisOptions {
  return { ...extra, args: [...(extra.args ?? []), ...ELASTICACHE_DISABLED.flatMap((c) => ['--rename-command', c, ''])] };
}

/** An ACL user as a managed service gives one: every key and channel, no @admin, no @dangerous. */
export const RESTRICTED_USER = { name: 'app', password: 'app-secret' } as const;

/** The ACL SETUSER arguments for RESTRICTED_USER; `extra` adds rules (e.g. '+acl|dryrun'). */
export function restrictedUserRules(...extra: string[]): string[] {
  return ['SETUSER', RESTRICTED_USER.name, 'reset', 'on', `>${RESTRICTED_USER.password}`, '~*', '&*', '+@all', '-@admin', '-@dangerous', ...extra];
}

/** The restricted user's URL on a test server. */
export function restrictedUrl(port: number): string {
  return `redis://${RESTRICTED_USER.name}:${RESTRICTED_USER.password}@127.0.0.1:${port}`;
}
