import { parseInfo } from '../info/parseInfo';

/** Which server answers, from INFO server. */
export interface ServerIdentity {
  /** server_name (Valkey says "valkey"), or "redis" where the server names none. */
  name: string;
  /** The server's own version: `<name>_version` (valkey_version) over redis_version. What a person is shown. */
  version: string;
  /**
   * redis_version: the Redis version the server is compatible with. Valkey keeps reporting
   * 7.2.4 there whatever its own version, so a check of "Redis ≥ x.y" compares this one; '' when absent.
   */
  redisVersion: string;
  /** server_mode (Valkey) over redis_mode: standalone, cluster or sentinel; '' when neither is reported. */
  mode: string;
}

/** INFO server's fields (parseInfo's `server` section) read as who the server is. */
export function serverIdentity(server: Record<string, string> | undefined): ServerIdentity {
  const s = server ?? {};
  const name = (s['server_name'] ?? '').trim() || 'redis';
  const redisVersion = s['redis_version'] ?? '';
  return {
    name,
    version: s[`${name}_version`] ?? redisVersion,
    redisVersion,
    mode: s['server_mode'] ?? s['redis_mode'] ?? '',
  };
}

/** The same from INFO's text (a raw reply, or a string ioredis returned). */
export function serverIdentityOfText(text: string): ServerIdentity {
  return serverIdentity(parseInfo(text)['server']);
}
