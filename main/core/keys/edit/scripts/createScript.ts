import { PRELUDE } from './prelude';

/**
 * create: a new key with its first element and its TTL in one script, so no client ever sees
 * the key without its TTL (nor an empty key: Redis has none).
 * ARGV: type, value, field (hash, stream) or score (zset) or '', TTL seconds or ''.
 */
export const CREATE = `${PRELUDE}
if redis.call('EXISTS', KEYS[1]) == 1 then
  return redis.error_reply('EXISTS a key with this name exists (' .. redis.call('TYPE', KEYS[1]).ok .. ')')
end
local kind, value, extra, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if kind == 'string' then
  redis.call('SET', KEYS[1], value)
elseif kind == 'hash' then
  redis.call('HSET', KEYS[1], extra, value)
elseif kind == 'list' then
  redis.call('RPUSH', KEYS[1], value)
elseif kind == 'set' then
  redis.call('SADD', KEYS[1], value)
elseif kind == 'zset' then
  local _, err = try('ZADD', KEYS[1], extra, value)
  if err then return err end
elseif kind == 'stream' then
  local _, err = try('XADD', KEYS[1], '*', extra, value)
  if err then return err end
else
  return redis.error_reply('BADARG unknown type ' .. kind)
end
if ttl ~= '' then redis.call('EXPIRE', KEYS[1], ttl) end
return 1
`;
