import { PRELUDE } from './prelude';

/** stream.add — ARGV: ID (or *), then field, value, field, value… Redis' refusal of an ID is BADARG. */
export const STREAM_ADD = `${PRELUDE}
local e = type_changed('stream')
if e then return stale(e) end
local _, err = try('XADD', KEYS[1], unpack(ARGV))
if err then return err end
return 1
`;

/** stream.delete — ARGV: the entry's ID, which must still be in the stream. */
export const STREAM_DELETE = `${PRELUDE}
local e = type_changed('stream')
if e then return stale(e) end
if redis.call('XDEL', KEYS[1], ARGV[1]) == 0 then return stale('entry ' .. ARGV[1] .. ' is no longer in the stream') end
return 1
`;
