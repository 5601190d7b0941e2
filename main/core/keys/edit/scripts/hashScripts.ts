import { PRELUDE } from './prelude';

/**
 * hash.set: the field's value must still be what the view showed, or the field still absent
 * when the view did not have it (adding a field must not overwrite one a second writer added).
 * ARGV: field, new value, '1' when a value is expected ('0': the field must not exist), expected value.
 */
export const HASH_SET = `${PRELUDE}
local e = type_changed('hash')
if e then return stale(e) end
local old = redis.call('HGET', KEYS[1], ARGV[1])
if ARGV[3] == '0' then
  if old then return stale('the field exists now') end
elseif not old then
  return stale('the field no longer exists')
elseif old ~= ARGV[4] then
  return stale('the field\\'s value changed')
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
`;

/**
 * hash.delete: the field must still hold what the view showed. Deleting the last field
 * deletes the key (Redis keeps no empty hash).
 * ARGV: field, expected value.
 */
export const HASH_DELETE = `${PRELUDE}
local e = type_changed('hash')
if e then return stale(e) end
local old = redis.call('HGET', KEYS[1], ARGV[1])
if not old then return stale('the field no longer exists') end
if old ~= ARGV[2] then return stale('the field\\'s value changed') end
redis.call('HDEL', KEYS[1], ARGV[1])
return 1
`;
