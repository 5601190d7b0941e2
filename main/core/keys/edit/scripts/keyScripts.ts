import { PRELUDE } from './prelude';

/* The edits that fit a key of any type. ARGV[1] is the type the view showed, or '' (the key must only still exist). */

/** ttl.set — ARGV: type, seconds. */
export const TTL_SET = `${PRELUDE}
local e = type_changed(ARGV[1])
if e then return stale(e) end
redis.call('EXPIRE', KEYS[1], ARGV[2])
return 1
`;

/** ttl.remove — ARGV: type. */
export const TTL_REMOVE = `${PRELUDE}
local e = type_changed(ARGV[1])
if e then return stale(e) end
redis.call('PERSIST', KEYS[1])
return 1
`;

/**
 * rename: KEYS[1] to KEYS[2] (the same slot on a cluster, checked before). RENAMENX unless the
 * overwrite was confirmed; a taken name is TAKEN. The TTL moves with the key.
 * ARGV: type, '1' to overwrite.
 */
export const RENAME = `${PRELUDE}
local e = type_changed(ARGV[1])
if e then return stale(e) end
if ARGV[2] == '1' then
  redis.call('RENAME', KEYS[1], KEYS[2])
elseif redis.call('RENAMENX', KEYS[1], KEYS[2]) == 0 then
  return redis.error_reply('TAKEN another key has that name (' .. redis.call('TYPE', KEYS[2]).ok .. ')')
end
return 1
`;

/** delete — ARGV: type. UNLINK frees a big value's memory off the main thread. */
export const DELETE = `${PRELUDE}
local e = type_changed(ARGV[1])
if e then return stale(e) end
redis.call('UNLINK', KEYS[1])
return 1
`;
