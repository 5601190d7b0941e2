import { CHECKED } from './prelude';

/**
 * string.set: replace a string the view loaded whole. The UI sends the SHA-1 of the bytes it
 * loaded; the script compares it with redis.sha1hex of the value now. A value longer than the
 * longest the view can load whole (A[2]) changed since by definition, and is refused from
 * STRLEN alone, so a value grown to 100 MB is never read here. SET … KEEPTTL (Redis 6.0+) keeps its TTL.
 * A: expected SHA-1, longest length a view loads whole, new value.
 */
export const STRING_SET = `${CHECKED}
local n = redis.call('STRLEN', KEYS[1])
if n > tonumber(A[2]) then return stale('the value is ' .. n .. ' bytes now') end
if redis.sha1hex(redis.call('GET', KEYS[1])) ~= A[1] then return stale('the value changed') end
redis.call('SET', KEYS[1], A[3], 'KEEPTTL')
return 1
`;

/**
 * string.append: CHECKED compared the length the view showed (and the digest of a small
 * value), so a second writer's append or set is never appended to unseen. A: bytes to append.
 */
export const STRING_APPEND = `${CHECKED}
redis.call('APPEND', KEYS[1], A[1])
return 1
`;
