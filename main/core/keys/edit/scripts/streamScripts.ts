import { CHECKED } from './prelude';

/** stream.add — A: ID (or *), then field, value, field, value… Redis' refusal of an ID is BADARG. */
export const STREAM_ADD = `${CHECKED}
local _, err = try('XADD', KEYS[1], unpack(A))
if err then return err end
return 1
`;

/** stream.delete — A: the entry's ID, which must still be in the stream. */
export const STREAM_DELETE = `${CHECKED}
if redis.call('XDEL', KEYS[1], A[1]) == 0 then return stale('entry ' .. A[1] .. ' is no longer in the stream') end
return 1
`;
