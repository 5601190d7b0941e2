import { CHECKED } from './prelude';

/* The edits that fit a key of any type: CHECKED has compared what the view showed. */

/** ttl.set — A: seconds. */
export const TTL_SET = `${CHECKED}
redis.call('EXPIRE', KEYS[1], A[1])
return 1
`;

export const TTL_REMOVE = `${CHECKED}
redis.call('PERSIST', KEYS[1])
return 1
`;

/**
 * rename: KEYS[1] to KEYS[2] (the same slot on a cluster, checked before). RENAMENX unless the
 * overwrite was confirmed; a taken name is TAKEN. The TTL moves with the key.
 * A: '1' to overwrite.
 */
export const RENAME = `${CHECKED}
if A[1] == '1' then
  redis.call('RENAME', KEYS[1], KEYS[2])
elseif redis.call('RENAMENX', KEYS[1], KEYS[2]) == 0 then
  return redis.error_reply('TAKEN another key has that name (' .. redis.call('TYPE', KEYS[2]).ok .. ')')
end
return 1
`;

/** delete: UNLINK frees a big value's memory off the main thread. */
export const DELETE = `${CHECKED}
redis.call('UNLINK', KEYS[1])
return 1
`;
