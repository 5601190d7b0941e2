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
export const PRELUDE = `
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
