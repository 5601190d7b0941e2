import { PRELUDE } from './prelude';

/**
 * string.set: replace a string the view loaded whole. The UI sends the SHA-1 of the bytes it
 * loaded; the script compares it with redis.sha1hex of the value now. A value longer than the
 * longest the view can load whole (ARGV[2]) changed since by definition, and is refused from
 * STRLEN alone, so a value grown to 100 MB is never read here. SET … KEEPTTL (Redis 6.0+) keeps its TTL.
 * ARGV: expected SHA-1, longest length a view loads whole, new value.
 */
export const STRING_SET = `${PRELUDE}
local e = type_changed('string')
if e then return stale(e) end
local n = redis.call('STRLEN', KEYS[1])
if n > tonumber(ARGV[2]) then return stale('the value is ' .. n .. ' bytes now') end
if redis.sha1hex(redis.call('GET', KEYS[1])) ~= ARGV[1] then return stale('the value changed') end
redis.call('SET', KEYS[1], ARGV[3], 'KEEPTTL')
return 1
`;

/**
 * string.append: the length the view showed must still be the length (a second writer's
 * append or set would otherwise be appended to unseen).
 * ARGV: expected length, bytes to append.
 */
export const STRING_APPEND = `${PRELUDE}
local e = type_changed('string')
if e then return stale(e) end
local n = redis.call('STRLEN', KEYS[1])
if n ~= tonumber(ARGV[1]) then return stale('the value is ' .. n .. ' bytes now, the view showed ' .. ARGV[1]) end
redis.call('APPEND', KEYS[1], ARGV[2])
return 1
`;
