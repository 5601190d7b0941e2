/**
 * The digest of a value small enough to digest on every edit: SHA-1, computed on the server, of
 * its elements, each length-prefixed so boundaries count. Not of DUMP: DUMP follows the encoding
 * (an int-encoded string, a listpack turned hashtable) and, for a hash or set stored as a hash
 * table, the table's iteration order, which moves while Redis rehashes the table after it grew,
 * so an unchanged value would read as changed. Hash fields and set members are sorted first;
 * lists and sorted sets have an order of their own. The same Lua is read by keys.get
 * (KeyMeta.digest) and run by every edit (../edit/scripts/prelude.ts), so both sides agree on
 * what "small enough" is.
 *
 * Bounded so an edit's script stays short: at most DIGEST_MAX_ELEMENTS elements (checked by the
 * O(1) length first) and DIGEST_MAX_BYTES of MEMORY USAGE (SAMPLES 0: exact, O(elements)).
 * Streams are not digested: the length and TTL are what an edit of a stream compares.
 */
export const DIGEST_MAX_ELEMENTS = 1024;
export const DIGEST_MAX_BYTES = 256 * 1024;

/** Lua: `value_digest(type)` of KEYS[1], or '' when it is not digested. */
export const DIGEST_LUA = `
local DIGEST_LENGTH = { string = 'STRLEN', hash = 'HLEN', list = 'LLEN', set = 'SCARD', zset = 'ZCARD' }
local function value_items(t)
  local k = KEYS[1]
  if t == 'string' then return { redis.call('GET', k) } end
  if t == 'list' then return redis.call('LRANGE', k, 0, -1) end
  if t == 'zset' then return redis.call('ZRANGE', k, 0, -1, 'WITHSCORES') end
  if t == 'set' then
    local members = redis.call('SMEMBERS', k)
    table.sort(members)
    return members
  end
  local flat = redis.call('HGETALL', k)
  local value, fields = {}, {}
  for i = 1, #flat, 2 do
    value[flat[i]] = flat[i + 1]
    fields[#fields + 1] = flat[i]
  end
  table.sort(fields)
  local items = {}
  for _, f in ipairs(fields) do
    items[#items + 1] = f
    items[#items + 1] = value[f]
  end
  return items
end
local function value_digest(t)
  local len = DIGEST_LENGTH[t]
  if not len then return '' end
  if t ~= 'string' and redis.call(len, KEYS[1]) > ${DIGEST_MAX_ELEMENTS} then return '' end
  if redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', '0') > ${DIGEST_MAX_BYTES} then return '' end
  local parts = {}
  for i, v in ipairs(value_items(t)) do parts[i] = #v .. ':' .. v end
  return redis.sha1hex(table.concat(parts, ','))
end
`;

/** keys.get's read of the digest: '' for a value not digested (or no key). */
export const DIGEST_SCRIPT = `${DIGEST_LUA}
return value_digest(redis.call('TYPE', KEYS[1]).ok)
`;
