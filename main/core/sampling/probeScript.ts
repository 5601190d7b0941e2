import { createHash } from 'node:crypto';
import { commandInfoHas } from '../pool/commandSupport';
import { encodeCommand } from '../resp/encodeCommand';
import type { RespPipe } from '../resp/respPipe';
import { KEY_TYPES } from './aggregate';
import { TYPE_OF_ENCODING } from './encodingTypes';

/**
 * Encodings the script answers by number (their index here), so that a million keys cost Node
 * no string each; any other (a later Redis's, a module's) comes as its name.
 */
export const ENCODINGS = ['int', 'embstr', 'raw', 'listpack', 'listpackex', 'hashtable', 'quicklist', 'linkedlist', 'intset', 'skiplist', 'stream', 'ziplist'];

const luaTable = (entries: [string, string | number][]) => `{${entries.map(([k, v]) => `['${k}']=${typeof v === 'number' ? v : `'${v}'`}`).join(', ')}}`;

/**
 * What a census asks of each key, in one script per page of keys instead of four or five
 * pipelined commands a key: OBJECT ENCODING (nil: the key is gone), TYPE only where the
 * encoding does not name the type (listpack, hashtable; `raw` too when modules are loaded,
 * as a module's value reports it), MEMORY USAGE … SAMPLES n, PTTL and the type's O(1) length.
 * Five values a key come back in one flat array: type (its index in KEY_TYPES, -1 for a key
 * gone since SCAN found it, a module type's name), encoding (its index in ENCODINGS, or its
 * name), memory, pttl, length. The key names stay in Node: the script sends none back.
 *
 * ARGV: SAMPLES n, 1 when modules may be loaded (else 0), then the keys. They are ARGV, not
 * KEYS, and the flags allow keys of several slots: a cluster master's SCAN page spans its
 * slots, which a declared-keys script would be refused (CROSSSLOT). The shebang needs Redis 7
 * (Valkey 7.2+): an older server refuses to load the script and the census sends plain
 * commands (see openShards).
 */
export const PROBE_SCRIPT = `#!lua flags=no-writes,allow-cross-slot-keys
local ONE = ${luaTable(Object.entries(TYPE_OF_ENCODING))}
local TYPE = ${luaTable(KEY_TYPES.flatMap((t, i): [string, number][] => (t === 'other' ? [] : [[t, i]])))}
local ENC = ${luaTable(ENCODINGS.map((e, i) => [e, i]))}
local LEN = {string='STRLEN', hash='HLEN', list='LLEN', set='SCARD', zset='ZCARD', stream='XLEN'}
if ARGV[2] == '1' then ONE.raw = nil end
local samples = ARGV[1]
local out = {}
local j = 0
for i = 3, #ARGV do
  local k = ARGV[i]
  local e = redis.call('OBJECT', 'ENCODING', k)
  if not e then
    out[j + 1] = -1; out[j + 2] = 0; out[j + 3] = 0; out[j + 4] = 0; out[j + 5] = 0
  else
    local t = ONE[e] or redis.call('TYPE', k)['ok']
    local c = LEN[t]
    out[j + 1] = TYPE[t] or t
    out[j + 2] = ENC[e] or e
    out[j + 3] = redis.call('MEMORY', 'USAGE', k, 'SAMPLES', samples)
    out[j + 4] = redis.call('PTTL', k)
    out[j + 5] = c and redis.call(c, k) or 0
  end
  j = j + 5
end
return out
`;

export const PROBE_SHA = createHash('sha1').update(PROBE_SCRIPT).digest('hex');

/** Values a key in the script's reply. */
export const PER_KEY = 5;

/**
 * Whether this connection may probe by script: EVALSHA exists (COMMAND INFO, as
 * ../pool/commandSupport.ts decides it; a managed service may rename it away) and SCRIPT LOAD
 * took the script (refused by an ACL without @scripting, or by a server older than Redis 7,
 * which does not know the shebang). An ACL that allows SCRIPT LOAD but not EVALSHA is found on
 * the first page (ScriptProber falls back then).
 */
export async function loadProbeScript(pipe: RespPipe): Promise<boolean> {
  const [info, loaded] = await pipe.send(
    Buffer.concat([encodeCommand(['COMMAND', 'INFO', 'EVALSHA']), encodeCommand(['SCRIPT', 'LOAD', PROBE_SCRIPT])]),
    2,
    true,
  );
  return commandInfoHas(info) && loaded === PROBE_SHA;
}
