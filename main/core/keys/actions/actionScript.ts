import { createHash } from 'node:crypto';
import { FIELD_TTLS_LUA } from '../../pool/fieldTtls';

/**
 * The per-key check-and-act of a bulk key action, one script per key (KEYS[1]), so the filter
 * is re-checked and the action done atomically: no other client's command runs in between, and
 * a key whose type, TTL, idle time or size changed since it was matched is left alone.
 *
 * ARGV: mode (check, delete, expire, persist, export), type ('' any, 'other' a module type),
 * ttl mode (any, none, below, above), ttl bound in ms, idle minimum in s (-1: none), memory
 * minimum in bytes (-1: none), expire seconds, '1' for "only keys without a TTL", '1' when the
 * server has hash-field expiration (COMMAND INFO, ../../pool/commandSupport.ts hasFieldTtls).
 *
 * TTLs: "no TTL" (ttl mode none) means the key has none AND, on a server with hash-field
 * expiration, is not a hash whose fields expire (../../pool/fieldTtls.ts: the check sampling makes, a
 * hash over 64 fields judged by 64 random ones), so "delete/persist keys with no TTL" never
 * takes a hash that is expiring field by field. "TTL below/above" compare the key's own TTL:
 * such a hash has none, so matches neither. "Only keys without a TTL" on expire is EXPIRE NX's
 * rule (the key's own TTL, which a field TTL does not replace), the script's and the plain
 * command's alike.
 *
 * Returns 1 when it acted (check: the key fits), 0 when it left the key alone (gone, a filter
 * no longer fits, no TTL to persist, a TTL already there under NX); export returns
 * {pttl, DUMP payload}. TYPE, PTTL, OBJECT IDLETIME and MEMORY USAGE do not touch the key's
 * access time, so checking does not change what the idle filter sees.
 */
export const ACTION_SCRIPT = `${FIELD_TTLS_LUA}
local STANDARD = { string = true, hash = true, list = true, set = true, zset = true, stream = true }
local k = KEYS[1]
local mode = ARGV[1]
local t = redis.call('TYPE', k).ok
if t == 'none' then return 0 end
local want = ARGV[2]
if want == 'other' then
  if STANDARD[t] then return 0 end
elseif want ~= '' and t ~= want then
  return 0
end
local pttl = redis.call('PTTL', k)
local ttlMode = ARGV[3]
local bound = tonumber(ARGV[4])
if ttlMode == 'none' and (pttl ~= -1 or (ARGV[9] == '1' and t == 'hash' and fields_expire(k))) then return 0 end
if ttlMode == 'below' and (pttl < 0 or pttl >= bound) then return 0 end
if ttlMode == 'above' and (pttl < 0 or pttl <= bound) then return 0 end
local idle = tonumber(ARGV[5])
if idle >= 0 and redis.call('OBJECT', 'IDLETIME', k) < idle then return 0 end
local mem = tonumber(ARGV[6])
if mem >= 0 and (redis.call('MEMORY', 'USAGE', k, 'SAMPLES', '5') or 0) < mem then return 0 end
if mode == 'check' then return 1 end
if mode == 'delete' then return redis.call('UNLINK', k) end
if mode == 'expire' then
  if ARGV[8] == '1' and pttl ~= -1 then return 0 end
  return redis.call('EXPIRE', k, ARGV[7])
end
if mode == 'persist' then return redis.call('PERSIST', k) end
if mode == 'export' then return { pttl, redis.call('DUMP', k) } end
return redis.error_reply('ERR unknown mode ' .. mode)
`;

export const ACTION_SHA = createHash('sha1').update(ACTION_SCRIPT).digest('hex');

export type ScriptMode = 'check' | 'delete' | 'expire' | 'persist' | 'export';
