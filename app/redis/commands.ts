/**
 * What Cacheboard knows of Redis commands without asking the server: the one hand-kept table.
 * The console asks the server itself (COMMAND INFO); this table serves the paths that cannot
 * wait for it or have no connection to ask on: MONITOR lines (hot keys, the key filter, replica
 * delay), SLOWLOG entries, a bulk load's input (its DB guard, key count and cluster slots).
 * Pure, so the renderer reads the same facts (SLOWLOG key links, replica delay).
 *
 * A command the table does not name is an ordinary data command: one key at argument 1,
 * replicated, no subcommand, staying in its DB, with an unknown effect on the number of keys.
 * What the server can say of a row (key places, subcommands, the write flag) is checked against
 * a real server's COMMAND INFO in main/core/redis/commands.test.ts (app/'s own tests reach no server).
 */

/** Keys at arguments first..last (last < 0 counts from the end) every `step`, as COMMAND INFO's first/last/step. */
export interface KeyRange {
  first: number;
  last: number;
  step: number;
}
/** numkeys at argument `at`, then that many keys; `dest` when argument 1 is a key before it (ZUNIONSTORE's destination). */
export interface NumKeys {
  at: number;
  dest: boolean;
}
/** Where a command's keys are; 'none' for no key (or keys the table does not place: XREAD's after STREAMS). */
export type KeySpec = KeyRange | NumKeys | 'none';

/** How a command changes the number of keys (a bulk load compares DBSIZE with the keys it wrote). */
export type KeyCountEffect =
  /** Creates (or writes) the key at argument 1. */
  | 'creates'
  /** Creates the keys at arguments 1, 3, 5… (MSET). */
  | 'pairs'
  /** Keeps the count unless its timeout (argument 2) is not positive, which deletes (EXPIRE). */
  | 'timeout'
  /** Leaves the set of keys as it is. */
  | 'neutral'
  /** May delete, rename or move keys, or may or may not create one (BITFIELD with only GET). */
  | 'unknown';

interface Facts {
  keys?: KeySpec;
  /** The keys are shard channels: hashed to a slot like keys, but not keys (SPUBLISH). */
  channels?: true;
  /** Never reaches a replica's stream: a read, or the state of a connection or of the server. */
  local?: true;
  /** Its first argument names a subcommand (CONFIG SET, CLIENT KILL, ACL SETUSER). */
  subcommand?: true;
  /** Reaches past the connection's DB: SELECT switches it, SWAPDB and MOVE touch another, FLUSHALL empties all. */
  otherDb?: true;
  /** Part of a transaction, which runs on one node as one. */
  transaction?: true;
  keyCount?: KeyCountEffect;
}

/** The default: one key at argument 1. Compared by identity on the bulk load's hot path. */
export const FIRST_KEY: KeyRange = { first: 1, last: 1, step: 1 };
const ALL_ARGS: KeyRange = { first: 1, last: -1, step: 1 };

const TABLE = new Map<string, Facts>();
/** Adds `facts` to each command named in `names` (space-separated), keeping what earlier rows said. */
function row(names: string, facts: Facts): void {
  for (const name of names.split(/\s+/)) if (name !== '') TABLE.set(name, { ...TABLE.get(name), ...facts });
}

// ---------------------------------------------------------------- where the keys are

row(
  `AUTH CLIENT CLUSTER COMMAND CONFIG DBSIZE DEBUG DISCARD ECHO EXEC FLUSHALL FLUSHDB FUNCTION HELLO INFO
   LATENCY LASTSAVE MEMORY MODULE MONITOR MULTI OBJECT PING PSUBSCRIBE PUBLISH PUBSUB PUNSUBSCRIBE QUIT RANDOMKEY
   READONLY READWRITE REPLCONF REPLICAOF RESET ROLE SAVE BGSAVE BGREWRITEAOF SCAN SCRIPT SELECT SHUTDOWN SLAVEOF
   SLOWLOG SUBSCRIBE SWAPDB SYNC PSYNC TIME UNSUBSCRIBE UNWATCH WAIT WAITAOF ACL XREAD XREADGROUP KEYS XGROUP XINFO`,
  { keys: 'none' },
);
row('DEL UNLINK EXISTS TOUCH MGET SINTERSTORE SUNIONSTORE SDIFFSTORE SINTER SUNION SDIFF PFMERGE PFCOUNT WATCH', { keys: ALL_ARGS });
row('MSET MSETNX', { keys: { first: 1, last: -1, step: 2 } });
row('RENAME RENAMENX RPOPLPUSH LMOVE BLMOVE SMOVE COPY GEOSEARCHSTORE ZRANGESTORE', { keys: { first: 1, last: 2, step: 1 } });
row('BITOP', { keys: { first: 2, last: -1, step: 1 } });
row('ZUNIONSTORE ZINTERSTORE ZDIFFSTORE', { keys: { at: 2, dest: true } });
row('ZUNION ZINTER ZDIFF SINTERCARD ZINTERCARD LMPOP ZMPOP', { keys: { at: 1, dest: false } });
row('EVAL EVALSHA EVAL_RO EVALSHA_RO FCALL FCALL_RO', { keys: { at: 2, dest: false } });
// A shard channel lives on its slot's master, so it routes like a key.
row('SPUBLISH', { keys: FIRST_KEY, channels: true });
row('SSUBSCRIBE SUNSUBSCRIBE', { keys: ALL_ARGS, channels: true });
row('MULTI EXEC DISCARD WATCH UNWATCH', { transaction: true });

// ---------------------------------------------------------------- what the server does with it

row(
  `GET MGET GETRANGE STRLEN EXISTS TYPE TTL PTTL EXPIRETIME PEXPIRETIME DBSIZE
   HGET HMGET HGETALL HKEYS HVALS HLEN HEXISTS HSTRLEN HSCAN HRANDFIELD
   LRANGE LINDEX LLEN LPOS SMEMBERS SISMEMBER SMISMEMBER SCARD SSCAN SRANDMEMBER
   SINTER SUNION SDIFF SINTERCARD ZRANGE ZRANGEBYSCORE ZREVRANGE ZREVRANGEBYSCORE ZRANK
   ZREVRANK ZSCORE ZMSCORE ZCARD ZCOUNT ZLEXCOUNT ZSCAN ZRANDMEMBER XRANGE XREVRANGE
   XLEN XINFO XREAD XPENDING BITCOUNT BITPOS GETBIT PFCOUNT GEOPOS GEODIST GEOSEARCH
   SCAN KEYS RANDOMKEY INFO PING ECHO CLIENT CONFIG COMMAND SLOWLOG LATENCY
   MEMORY OBJECT ROLE TIME LASTSAVE DUMP AUTH HELLO SELECT WATCH UNWATCH MULTI
   EXEC DISCARD SUBSCRIBE PSUBSCRIBE UNSUBSCRIBE PUNSUBSCRIBE PUBSUB REPLCONF WAIT`,
  { local: true },
);
row('ACL CLIENT CLUSTER COMMAND CONFIG FUNCTION LATENCY MEMORY MODULE OBJECT PUBSUB SCRIPT SLOWLOG XGROUP XINFO', { subcommand: true });
row('SELECT SWAPDB MOVE FLUSHALL', { otherDb: true });

// ---------------------------------------------------------------- the number of keys

row(
  `SET SETEX PSETEX SETNX GETSET APPEND SETRANGE SETBIT INCR INCRBY INCRBYFLOAT DECR DECRBY
   HSET HMSET HSETNX HINCRBY HINCRBYFLOAT SADD ZADD ZINCRBY RPUSH LPUSH XADD PFADD GEOADD RESTORE`,
  { keyCount: 'creates' },
);
row('MSET MSETNX', { keyCount: 'pairs' });
row('EXPIRE PEXPIRE', { keyCount: 'timeout' });
// RPUSHX/LPUSHX/LSET only touch existing keys; MULTI/EXEC wrap commands judged on their own.
row('PERSIST RPUSHX LPUSHX LSET PING ECHO MULTI EXEC', { keyCount: 'neutral' });

/** Every command the table names (its test checks each against the server's COMMAND INFO). */
export const NAMED_COMMANDS: readonly string[] = [...TABLE.keys()];

const NONE: Facts = {};
const factsOf = (command: string): Facts => TABLE.get(command) ?? NONE;

/** Where the keys of a command (its name upper-cased) are. */
export function keysOf(command: string): KeySpec {
  return factsOf(command).keys ?? FIRST_KEY;
}

/** Whether a command's first argument is a key (hot keys, the MONITOR key filter, SLOWLOG key links). */
export function takesKey(command: string): boolean {
  const f = factsOf(command);
  const keys = f.keys ?? FIRST_KEY;
  if (f.channels === true || keys === 'none') return false;
  return 'step' in keys ? keys.first === 1 : keys.dest;
}

/** Whether a command can reach a replica's stream (a write); false for reads and connection or server state. */
export function replicates(command: string): boolean {
  return factsOf(command).local !== true;
}

/** Whether a command's first argument names a subcommand (CONFIG SET), not a key. */
export function hasSubcommand(command: string): boolean {
  return factsOf(command).subcommand === true;
}

/** Whether a command reaches past the connection's DB (SELECT, SWAPDB, MOVE, FLUSHALL). */
export function reachesOtherDb(command: string): boolean {
  return factsOf(command).otherDb === true;
}

/** Whether a command belongs to a transaction (MULTI … EXEC, WATCH), which must run on one node. */
export function inTransaction(command: string): boolean {
  return factsOf(command).transaction === true;
}

/** How a command changes the number of keys. */
export function keyCountOf(command: string): KeyCountEffect {
  return factsOf(command).keyCount ?? 'unknown';
}
