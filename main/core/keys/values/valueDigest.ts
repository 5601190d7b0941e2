/**
 * The digest of a value small enough to digest on every edit: SHA-1 of its DUMP, computed on
 * the server. DUMP serialises any type exactly (listpack blobs as they are, a skiplist in score
 * order), so two equal digests mean the value did not change; on Redis 7.4+ a hash's DUMP holds
 * its fields' TTLs too. The same Lua is read by keys.get (KeyMeta.digest) and run by every edit
 * (../edit/scripts/prelude.ts), so both sides agree on what "small enough" is.
 *
 * Bounded so an edit's script stays short: at most DIGEST_MAX_ELEMENTS elements (checked by the
 * O(1) length first) and DIGEST_MAX_BYTES of MEMORY USAGE (SAMPLES 0: exact, O(elements)).
 * Streams are never digested: their DUMP holds consumer groups, which change as consumers read.
 */
export const DIGEST_MAX_ELEMENTS = 1024;
export const DIGEST_MAX_BYTES = 256 * 1024;

/** Lua: `value_digest(type)` of KEYS[1], or '' when it is not digested. */
export const DIGEST_LUA = `
local DIGEST_LENGTH = { string = 'STRLEN', hash = 'HLEN', list = 'LLEN', set = 'SCARD', zset = 'ZCARD' }
local function value_digest(t)
  local len = DIGEST_LENGTH[t]
  if not len then return '' end
  if t ~= 'string' and redis.call(len, KEYS[1]) > ${DIGEST_MAX_ELEMENTS} then return '' end
  if redis.call('MEMORY', 'USAGE', KEYS[1], 'SAMPLES', '0') > ${DIGEST_MAX_BYTES} then return '' end
  return redis.sha1hex(redis.call('DUMP', KEYS[1]))
end
`;

/** keys.get's read of the digest: '' for a value not digested (or no key). */
export const DIGEST_SCRIPT = `${DIGEST_LUA}
return value_digest(redis.call('TYPE', KEYS[1]).ok)
`;
