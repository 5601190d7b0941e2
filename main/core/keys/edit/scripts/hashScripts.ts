import { CHECKED } from './prelude';

/** The field A[1] must still hold A[expect] (the value the view showed). */
const FIELD_HOLDS = (expect: number) => `
local old = redis.call('HGET', KEYS[1], A[1])
if not old then return stale('the field no longer exists') end
if old ~= A[${expect}] then return stale('the field\\'s value changed') end
`;

/**
 * hash.set: the field's value must still be what the view showed, or the field still absent
 * when the view did not have it (adding a field must not overwrite one a second writer added).
 * HSET drops a field's TTL (hash-field expiration, Redis 7.4+): where the server has it (A[5],
 * from COMMAND INFO), the field's expiry time is read first and set again after, in this one
 * script, so editing a value never changes a TTL the edit did not show.
 * A: field, new value, '1' when a value is expected ('0': the field must not exist), expected value, '1' when the server has field TTLs.
 */
export const HASH_SET = `${CHECKED}
local old = redis.call('HGET', KEYS[1], A[1])
if A[3] == '0' then
  if old then return stale('the field exists now') end
elseif not old then
  return stale('the field no longer exists')
elseif old ~= A[4] then
  return stale('the field\\'s value changed')
end
local at = -1
if A[5] == '1' and old then at = redis.call('HPEXPIRETIME', KEYS[1], 'FIELDS', 1, A[1])[1] end
redis.call('HSET', KEYS[1], A[1], A[2])
if at > 0 then redis.call('HPEXPIREAT', KEYS[1], at, 'FIELDS', 1, A[1]) end
return 1
`;

/**
 * hash.delete: the field must still hold what the view showed. Deleting the last field
 * deletes the key (Redis keeps no empty hash). A: field, expected value.
 */
export const HASH_DELETE = `${CHECKED}${FIELD_HOLDS(2)}
redis.call('HDEL', KEYS[1], A[1])
return 1
`;

/**
 * hash.ttl (servers with hash-field expiration only; editPlan.ts refuses it elsewhere): the
 * field must still hold what the view showed; then HEXPIRE, or HPERSIST when no seconds.
 * A: field, expected value, seconds or ''.
 */
export const HASH_TTL = `${CHECKED}${FIELD_HOLDS(2)}
if A[3] == '' then
  redis.call('HPERSIST', KEYS[1], 'FIELDS', 1, A[1])
else
  redis.call('HEXPIRE', KEYS[1], A[3], 'FIELDS', 1, A[1])
end
return 1
`;
