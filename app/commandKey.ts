/**
 * Commands whose first argument is not a key. Hot-key counting and the key glob
 * look at the first argument of every other command, which is right for the
 * data commands that make up a cache's traffic (GET, SET, HGET, ZADD, EXPIRE…). Pure: the Node
 * side and the renderer (SLOWLOG key links) share it.
 */
const NO_KEY = new Set([
  'AUTH', 'CLIENT', 'CLUSTER', 'COMMAND', 'CONFIG', 'DBSIZE', 'DEBUG', 'DISCARD', 'ECHO', 'EVAL', 'EVALSHA',
  'EVAL_RO', 'EVALSHA_RO', 'EXEC', 'FCALL', 'FCALL_RO', 'FLUSHALL', 'FLUSHDB', 'FUNCTION', 'HELLO', 'INFO',
  'LATENCY', 'LASTSAVE', 'MEMORY', 'MODULE', 'MONITOR', 'MULTI', 'OBJECT', 'PING', 'PSUBSCRIBE', 'PUBLISH',
  'PUBSUB', 'PUNSUBSCRIBE', 'QUIT', 'RANDOMKEY', 'READONLY', 'READWRITE', 'REPLCONF', 'REPLICAOF', 'RESET',
  'ROLE', 'SAVE', 'BGSAVE', 'BGREWRITEAOF', 'SCAN', 'SCRIPT', 'SELECT', 'SHUTDOWN', 'SLAVEOF', 'SLOWLOG',
  'SPUBLISH', 'SSUBSCRIBE', 'SUBSCRIBE', 'SUNSUBSCRIBE', 'SWAPDB', 'SYNC', 'PSYNC', 'TIME', 'UNSUBSCRIBE',
  'UNWATCH', 'WAIT', 'WAITAOF', 'ACL', 'BITOP', 'XREAD', 'XREADGROUP',
]);

/** Whether a command's first argument is a key (the name upper-cased). */
export function takesKey(command: string): boolean {
  return !NO_KEY.has(command);
}
