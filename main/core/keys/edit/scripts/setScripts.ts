import { PRELUDE } from './prelude';

/** set.add — ARGV: member. Adding twice is harmless; only the key is checked. */
export const SET_ADD = `${PRELUDE}
local e = type_changed('set')
if e then return stale(e) end
redis.call('SADD', KEYS[1], ARGV[1])
return 1
`;

/** set.remove — ARGV: member, which must still be in the set. */
export const SET_REMOVE = `${PRELUDE}
local e = type_changed('set')
if e then return stale(e) end
if redis.call('SREM', KEYS[1], ARGV[1]) == 0 then return stale('the member is no longer in the set') end
return 1
`;

/**
 * zset.add: the member's score must still be the one the view showed, or the member still
 * absent when the view did not have it. Scores compare as numbers.
 * ARGV: member, new score, '1' when a score is expected ('0': a new member), expected score.
 */
export const ZSET_ADD = `${PRELUDE}
local e = type_changed('zset')
if e then return stale(e) end
local old = redis.call('ZSCORE', KEYS[1], ARGV[1])
if ARGV[3] == '0' then
  if old then return stale('the member is in the zset now') end
elseif not old then
  return stale('the member is no longer in the zset')
elseif not same_score(old, ARGV[4]) then
  return stale('the member\\'s score changed')
end
local _, err = try('ZADD', KEYS[1], ARGV[2], ARGV[1])
if err then return err end
return 1
`;

/** zset.incr — ARGV: member (which must still be there: ZINCRBY would recreate it), increment. */
export const ZSET_INCR = `${PRELUDE}
local e = type_changed('zset')
if e then return stale(e) end
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return stale('the member is no longer in the zset') end
local _, err = try('ZINCRBY', KEYS[1], ARGV[2], ARGV[1])
if err then return err end
return 1
`;

/** zset.remove — ARGV: member, which must still be in the zset. */
export const ZSET_REMOVE = `${PRELUDE}
local e = type_changed('zset')
if e then return stale(e) end
if redis.call('ZREM', KEYS[1], ARGV[1]) == 0 then return stale('the member is no longer in the zset') end
return 1
`;
