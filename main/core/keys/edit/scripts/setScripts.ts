import { CHECKED } from './prelude';

/** set.add — A: member. CHECKED has compared the set the view showed. */
export const SET_ADD = `${CHECKED}
redis.call('SADD', KEYS[1], A[1])
return 1
`;

/** set.remove — A: member, which must still be in the set. */
export const SET_REMOVE = `${CHECKED}
if redis.call('SREM', KEYS[1], A[1]) == 0 then return stale('the member is no longer in the set') end
return 1
`;

/**
 * zset.add: the member's score must still be the one the view showed, or the member still
 * absent when the view did not have it. Scores compare as numbers.
 * A: member, new score, '1' when a score is expected ('0': a new member), expected score.
 */
export const ZSET_ADD = `${CHECKED}
local old = redis.call('ZSCORE', KEYS[1], A[1])
if A[3] == '0' then
  if old then return stale('the member is in the zset now') end
elseif not old then
  return stale('the member is no longer in the zset')
elseif not same_score(old, A[4]) then
  return stale('the member\\'s score changed')
end
local _, err = try('ZADD', KEYS[1], A[2], A[1])
if err then return err end
return 1
`;

/** zset.incr — A: member (which must still be there: ZINCRBY would recreate it), increment. */
export const ZSET_INCR = `${CHECKED}
if not redis.call('ZSCORE', KEYS[1], A[1]) then return stale('the member is no longer in the zset') end
local _, err = try('ZINCRBY', KEYS[1], A[2], A[1])
if err then return err end
return 1
`;

/** zset.remove — A: member, which must still be in the zset. */
export const ZSET_REMOVE = `${CHECKED}
if redis.call('ZREM', KEYS[1], A[1]) == 0 then return stale('the member is no longer in the zset') end
return 1
`;
