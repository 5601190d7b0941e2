import type { Cluster, Redis } from 'ioredis';

/** Fields of one hash whose TTL is read: all of a small hash, a random handful of a big one. */
export const FIELDS_CHECKED = 64;

/**
 * Whether a hash with no key TTL has fields that expire (hash-field expiration: Redis 7.4+,
 * Valkey 9), decided one way for sampling (../sampling/fieldExpiry.ts, over a raw pipe) and the
 * TTL filters (here), so a key the report counts under `fields` is one the Keys list's and bulk
 * actions' no-TTL filters count as having a TTL: Redis' `listpackex`
 * encoding (a small hash that holds field TTLs) says yes with no further command; any other
 * hash gets HRANDFIELD key n (n ≤ 64 distinct fields) and HPTTL key FIELDS n …, and a field
 * with a TTL (0 or more; -1 none, -2 gone) says yes. A hash of up to 64 fields is checked
 * whole, a bigger one by 64 fields drawn at random: one where only a few fields expire can
 * read as having none. Asked only of a server whose COMMAND INFO has hash-field expiration
 * (commandSupport.ts hasFieldTtls): HPTTL does not exist before.
 */
export const EXPIRING_ENCODING = 'listpackex';

/** HPTTL's reply read as "a field of these expires". */
export function anyFieldTtl(reply: unknown): boolean {
  return Array.isArray(reply) && reply.some((t) => typeof t === 'number' && t >= 0);
}

/** The check above over an ioredis client (the Keys list, the deep index: ../keys/index/probeKeys.ts). Field names are read, never values. */
export async function hashFieldsExpire(client: Redis | Cluster, key: Buffer): Promise<boolean> {
  try {
    if ((await client.call('OBJECT', 'ENCODING', key)) === EXPIRING_ENCODING) return true;
    const fields = (await client.callBuffer('HRANDFIELD', key, String(FIELDS_CHECKED))) as unknown;
    if (!Array.isArray(fields) || fields.length === 0) return false; // emptied or deleted since
    return anyFieldTtl(await client.call('HPTTL', key, 'FIELDS', String(fields.length), ...(fields as Buffer[])));
  } catch (e) {
    // Replaced by another type since TYPE said hash: no hash, no field TTLs.
    if (e instanceof Error && e.message.startsWith('WRONGTYPE')) return false;
    throw e;
  }
}

/**
 * The same check inside a Lua script (the bulk actions' check-and-act, ../keys/actions/actionScript.ts),
 * as two local functions: `any_ttl(reply)` and `fields_expire(key)`. Call fields_expire only on
 * a hash of a server with hash-field expiration.
 */
export const FIELD_TTLS_LUA = `
local function any_ttl(ttls)
  for _, t in ipairs(ttls) do if t >= 0 then return true end end
  return false
end
local function fields_expire(k)
  if redis.call('OBJECT', 'ENCODING', k) == '${EXPIRING_ENCODING}' then return true end
  local f = redis.call('HRANDFIELD', k, ${FIELDS_CHECKED})
  if #f == 0 then return false end
  return any_ttl(redis.call('HPTTL', k, 'FIELDS', #f, unpack(f)))
end
`;
