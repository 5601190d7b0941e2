import { DIGEST_LUA } from '../../values/valueDigest';

/**
 * Lua shared by every edit script, prepended to each. KEYS[1] is always the key edited, so
 * EVAL routes by its slot on a cluster and the whole check-then-write runs atomically: no
 * other client's command runs between what a script reads and what it writes.
 *
 * A script refuses with an error reply whose first word says why; editErrors.ts turns it into
 * an AppError: STALE (the view is stale: CONFLICT), TAKEN (rename onto an existing name),
 * EXISTS (create of an existing key), BADARG (Redis refused an argument: VALIDATION).
 * Texts describe what changed, never a value: they reach the UI and the audit log.
 */
export const PRELUDE = `${DIGEST_LUA}
local STANDARD = { string = true, hash = true, list = true, set = true, zset = true, stream = true }

local function stale(what)
  return redis.error_reply('STALE ' .. what)
end

-- Why the key no longer matches the type the view showed, or nil when it does.
-- '' is any type (the key must only still exist); 'other' is any module type (TYPE then
-- answers the module's own name).
local function type_changed(want)
  local t = redis.call('TYPE', KEYS[1]).ok
  if t == 'none' then return 'the key no longer exists' end
  if want == '' then return nil end
  if want == 'other' then
    if STANDARD[t] then return 'it is a ' .. t .. ' now' end
    return nil
  end
  if t ~= want then return 'it is a ' .. t .. ' now, not a ' .. want end
  return nil
end

-- Two scores as Redis prints them, equal as numbers (ZSCORE may print 1.5 where a view typed 1.50).
local function same_score(a, b)
  if a == b then return true end
  local function num(s)
    local l = string.lower(s)
    if l == 'inf' or l == '+inf' then return math.huge end
    if l == '-inf' then return -math.huge end
    return tonumber(s)
  end
  local x, y = num(a), num(b)
  return x ~= nil and x == y
end

-- A write whose arguments Redis may refuse (an XADD ID, a NaN score): BADARG with its reply.
local function try(...)
  local r = redis.pcall(...)
  if type(r) == 'table' and r.err then return nil, redis.error_reply('BADARG ' .. r.err) end
  return r, nil
end
`;

/**
 * The head of every edit of an existing key. ARGV[1..4] are what the view showed of the key
 * (editPlan.ts: type, length or '', TTL class 'none'/'some' or '', digest or ''); the op's own
 * arguments follow, as A[1], A[2]… Any difference is STALE, before the op reads or writes:
 * the type, then the O(1) length and TTL class, then the digest of a small value (which
 * covers any change to it; a bigger one is checked by its length and the element edited).
 */
export const CHECKED = `${PRELUDE}
local LENGTH = { string = 'STRLEN', hash = 'HLEN', list = 'LLEN', set = 'SCARD', zset = 'ZCARD', stream = 'XLEN' }
local function seen_changed()
  local want, len, ttl, digest = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
  local e = type_changed(want)
  if e then return e end
  if len ~= '' and LENGTH[want] then
    local n = redis.call(LENGTH[want], KEYS[1])
    if n ~= tonumber(len) then return 'its length is ' .. n .. ' now, the view showed ' .. len end
  end
  if ttl ~= '' then
    local now = redis.call('PTTL', KEYS[1]) >= 0 and 'some' or 'none'
    if now ~= ttl then return now == 'none' and 'its TTL was removed' or 'it has a TTL now' end
  end
  if digest ~= '' and value_digest(want) ~= digest then return 'its value changed' end
  return nil
end
local A = { unpack(ARGV, 5) }
local seen = seen_changed()
if seen then return stale(seen) end
`;
