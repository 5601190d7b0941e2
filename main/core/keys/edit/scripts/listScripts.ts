import { CHECKED } from './prelude';

/**
 * list.push: a push overwrites nothing; CHECKED has compared the list the view showed (a list
 * deleted since would otherwise be recreated with one item). A: 'head' or 'tail', the item.
 */
export const LIST_PUSH = `${CHECKED}
if A[1] == 'head' then redis.call('LPUSH', KEYS[1], A[2]) else redis.call('RPUSH', KEYS[1], A[2]) end
return 1
`;

/** The item at A[1] must be A[2]: a push or removal by anyone shifts every index after it. */
const ITEM_AT = `
local item = redis.call('LINDEX', KEYS[1], A[1])
if not item then return stale('there is no item at index ' .. A[1] .. ' now') end
if item ~= A[2] then return stale('the item at index ' .. A[1] .. ' changed') end
`;

/** list.set — A: index, expected item, new item. */
export const LIST_SET = `${CHECKED}${ITEM_AT}
redis.call('LSET', KEYS[1], A[1], A[3])
return 1
`;

/**
 * list.remove: Redis removes list items by value, not index, so the item is first replaced
 * by a tombstone no list holds (random bytes chosen by the caller), then that one value is
 * removed, scanning from the nearer end. Equal items elsewhere in the list stay.
 * A: index, expected item, tombstone.
 */
export const LIST_REMOVE = `${CHECKED}${ITEM_AT}
redis.call('LSET', KEYS[1], A[1], A[3])
local idx = tonumber(A[1])
local from_tail = idx < 0 or idx >= redis.call('LLEN', KEYS[1]) / 2
redis.call('LREM', KEYS[1], from_tail and -1 or 1, A[3])
return 1
`;
