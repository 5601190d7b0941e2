import { createHash } from 'node:crypto';

/**
 * Evaluates an audience server-side in one atomic call: the BITOPs of its plan, BITCOUNT
 * of the audience, then per day BITOP AND with the day's bitmap and BITCOUNT; its scratch
 * keys are deleted before it returns, also when a command in it fails (pcall). The writes
 * are not propagated (redis.set_repl REPL_NONE, allowed since Redis 7 replicates a script's
 * effects, not the script): replicas and the AOF never see keys that live for one call.
 *
 * ARGV: scratchFirst scratchCount nOps {op dest nSrc src…}… audience tmp firstDay nDays,
 * every key as its index into KEYS.
 */
export const AUDIENCE_SCRIPT = `
redis.set_repl(redis.REPL_NONE)
local a = 1
local function nexti() local v = tonumber(ARGV[a]); a = a + 1; return v end
local sfirst, scount = nexti(), nexti()
local function run()
  for _ = 1, nexti() do
    local op = ARGV[a]; a = a + 1
    local args = { op, KEYS[nexti()] }
    for _ = 1, nexti() do args[#args + 1] = KEYS[nexti()] end
    redis.call('BITOP', unpack(args))
  end
  local aud, tmp, first, ndays = KEYS[nexti()], KEYS[nexti()], nexti(), nexti()
  local out = { redis.call('BITCOUNT', aud) }
  for d = 0, ndays - 1 do
    redis.call('BITOP', 'AND', tmp, aud, KEYS[first + d])
    out[d + 2] = redis.call('BITCOUNT', tmp)
  end
  return out
end
local ok, res = pcall(run)
if scount > 0 then redis.call('DEL', unpack(KEYS, sfirst, sfirst + scount - 1)) end
if ok then return res end
if type(res) == 'table' then return res end
return redis.error_reply(tostring(res))
`;

export const AUDIENCE_SCRIPT_SHA = createHash('sha1').update(AUDIENCE_SCRIPT).digest('hex');
