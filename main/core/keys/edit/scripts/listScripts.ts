import { PRELUDE } from './prelude';

/**
 * list.push: a push overwrites nothing, so nothing of the view is checked but the key itself:
 * a list deleted since would otherwise be recreated with one item.
 * ARGV: 'head' or 'tail', the item.
 */
export const LIST_PUSH = `${PRELUDE}
local e = type_changed('list')
if e then return stale(e) end
if ARGV[1] == 'head' then redis.call('LPUSH', KEYS[1], ARGV[2]) else redis.call('RPUSH', KEYS[1], ARGV[2]) end
return 1
`;

/** The item at ARGV[1] must be ARGV[2]: a push or removal by anyone shifts every index after it. */
const ITEM_AT = `
local e = type_changed('list')
if e then return stale(e) end
local item = redis.call('LINDEX', KEYS[1], ARGV[1])
if not item then return stale('there is no item at index ' .. ARGV[1] .. ' now') end
if item ~= ARGV[2] then return stale('the item at index ' .. ARGV[1] .. ' changed') end
`;

/** list.set — ARGV: index, expected item, new item. */
export const LIST_SET = `${PRELUDE}${ITEM_AT}
redis.call('LSET', KEYS[1], ARGV[1], ARGV[3])
return 1
`;

/**
 * list.remove: Redis removes list items by value, not index, so the item is first replaced
 * by a tombstone no list holds (random bytes chosen by the caller), then that one value is
 * removed, scanning from the nearer end. Equal items elsewhere in the list stay.
 * ARGV: index, expected item, tombstone.
 */
export const LIST_REMOVE = `${PRELUDE}${ITEM_AT}
redis.call('LSET', KEYS[1], ARGV[1], ARGV[3])
local idx = tonumber(ARGV[1])
local from_tail = idx < 0 or idx >= redis.call('LLEN', KEYS[1]) / 2
redis.call('LREM', KEYS[1], from_tail and -1 or 1, ARGV[3])
return 1
`;
