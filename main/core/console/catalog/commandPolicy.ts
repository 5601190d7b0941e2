import type { Catalog, CommandDoc } from '../../../../app/schemas/console';

/** KEYS is held on a DB of more keys than this. */
export const KEYS_HOLD_DB_SIZE = 10_000;

const indexes = new WeakMap<Catalog, Map<string, CommandDoc>>();

function indexOf(catalog: Catalog): Map<string, CommandDoc> {
  let index = indexes.get(catalog);
  if (index === undefined) {
    index = new Map(catalog.commands.map((c) => [c.name, c]));
    indexes.set(catalog, index);
  }
  return index;
}

/** The doc of a typed command: the subcommand's ("CONFIG SET") when it has one. Args as typed (any case). */
export function findCommand(catalog: Catalog, args: readonly string[]): CommandDoc | undefined {
  const first = args[0];
  if (first === undefined) return undefined;
  const doc = indexOf(catalog).get(first.toUpperCase());
  const sub = args[1];
  if (doc?.subcommands === undefined || sub === undefined) return doc;
  const name = `${doc.name} ${sub.toUpperCase()}`;
  return doc.subcommands.find((s) => s.name === name) ?? doc;
}

export interface Held {
  reason: 'dangerous' | 'writesAll' | 'keys';
  /** In words: what the server says of the command, and what to use instead. */
  why: string;
  /** What to type back: the command's name, "FLUSHALL" or "CONFIG SET". */
  confirmWith: string;
}

const has = (list: readonly string[] | undefined, item: string): boolean => list?.includes(item) === true;

/** COMMAND INFO described it: flags or categories. A names-only doc says nothing of safety. */
function described(doc: CommandDoc | undefined): doc is CommandDoc {
  return doc !== undefined && (doc.flags !== undefined || doc.categories !== undefined);
}

/**
 * KEYS, told by the server's facts rather than its name: a read (`readonly`) of the keyspace
 * (@keyspace) whose output has no set order (the nondeterministic_output_order tip; before 7.0,
 * the `sort_for_script` flag it replaced): it lists key names, all of them, in one reply.
 * SMEMBERS and HKEYS share the tip but read one key (@set, @hash); SCAN is not in one reply.
 */
function listsEveryKey(doc: CommandDoc): boolean {
  return (
    has(doc.flags, 'readonly') && has(doc.categories, '@keyspace') && (has(doc.tips, 'nondeterministic_output_order') || has(doc.flags, 'sort_for_script'))
  );
}

/**
 * A @dangerous command the server marks as only reporting state: its reply is tipped
 * nondeterministic (it reads live state: INFO, CLIENT LIST, SLOWLOG GET, LATENCY DOCTOR,
 * LASTSAVE, MODULE LIST), it has no `write` flag, and it is not `no_async_loading` (the flag that
 * keeps CLUSTER BUMPEPOCH and FAILOVER away from a loading server because they change it).
 * Tips came in 7.0: before that nothing marks a report, and every @dangerous command is held
 * (a 6.x CLIENT covers both LIST and KILL, with no subcommand rows to tell them apart).
 */
function onlyReports(doc: CommandDoc): boolean {
  return (
    (has(doc.tips, 'nondeterministic_output') || has(doc.tips, 'nondeterministic_output_order')) &&
    !has(doc.flags, 'write') &&
    !has(doc.flags, 'no_async_loading')
  );
}

/**
 * A command that changes everything on every node, though not @dangerous. Redis 7.0 leaves
 * SCRIPT FLUSH (flags: noscript only) and FUNCTION FLUSH (write, noscript) out of @dangerous;
 * what marks them is how the server routes them:
 * - request_policy:all_shards / all_nodes: a cluster client must send it to every shard or node;
 * - it changes state there: flagged `write` (FUNCTION FLUSH), or its response_policy is
 *   all_succeeded (the server wants nothing back from each node but an OK: an action, not a
 *   question, as SCRIPT FLUSH) and it is not flagged `fast` (PING is all_succeeded too, but an
 *   O(1) probe) nor `readonly`;
 * - it names nothing to act on: its arity leaves no required argument after the command (and
 *   subcommand) name, so it acts on all there is. That keeps FUNCTION LOAD / DELETE / RESTORE
 *   and SCRIPT LOAD, which name a library or a script, runnable.
 * On 7.0 this holds FLUSHALL and FLUSHDB (already @dangerous), SCRIPT FLUSH, FUNCTION FLUSH and
 * MEMORY PURGE (an allocator purge on every shard: harmless, but nothing in its facts says so).
 */
function writesEverything(doc: CommandDoc): boolean {
  if (requestPolicy(doc) === undefined || doc.arity === undefined) return false;
  const changes = has(doc.flags, 'write') || (has(doc.tips, 'response_policy:all_succeeded') && !has(doc.flags, 'fast') && !has(doc.flags, 'readonly'));
  const words = doc.name.split(' ').length;
  return changes && Math.abs(doc.arity) <= words;
}

function quoteSummary(doc: CommandDoc): string {
  return doc.summary === undefined ? '' : ` ("${doc.summary.replace(/\.$/, '')}")`;
}

/**
 * Whether the guard holds a command until typed back, from COMMAND INFO alone (no hand list):
 * @dangerous, or a write the server sends to every shard/node; KEYS only on a DB over 10,000
 * keys. An unknown doc (COMMAND INFO refused) is held: nothing says it is safe.
 */
export function heldFor(doc: CommandDoc | undefined, args: readonly string[], facts: { dbSize?: number }): Held | undefined {
  const name = doc?.name ?? (args[0] ?? '').toUpperCase();
  const typeBack = `Type ${name} to run it.`;
  if (!described(doc)) {
    return {
      reason: 'dangerous',
      why: `COMMAND INFO does not describe ${name} (it is refused, or there is no such command), so nothing says it is safe. ${typeBack}`,
      confirmWith: name,
    };
  }
  if (listsEveryKey(doc)) {
    const size = facts.dbSize;
    if (size === undefined || size <= KEYS_HOLD_DB_SIZE) return undefined;
    return {
      reason: 'keys',
      why:
        `${name} lists every key of the DB in one reply, and the server answers no one else until it is done; ` +
        `this DB holds ${size.toLocaleString('en-US')} keys (the guard holds it past ${KEYS_HOLD_DB_SIZE.toLocaleString('en-US')}). ` +
        `The Keys page finds keys by pattern with SCAN, in small steps. Type ${name} to run it anyway.`,
      confirmWith: name,
    };
  }
  if (doc.categories === undefined) {
    // Before 6.0 there are no ACL categories: no @dangerous to read. Hold what the flags say
    // writes or administers the server; reads and connection commands run.
    if (!has(doc.flags, 'write') && !has(doc.flags, 'admin')) return undefined;
    return {
      reason: 'dangerous',
      why: `This server's COMMAND INFO gives no ACL categories (Redis before 6.0), so nothing says whether ${name} is @dangerous; it flags it ${has(doc.flags, 'admin') ? 'admin' : 'write'}. ${typeBack}`,
      confirmWith: name,
    };
  }
  if (has(doc.categories, '@dangerous') && !onlyReports(doc)) {
    const write = has(doc.flags, 'write') ? ', and flags it write' : '';
    return {
      reason: 'dangerous',
      why: `The server puts ${name} in @dangerous${quoteSummary(doc)}${write}. ${typeBack}`,
      confirmWith: name,
    };
  }
  if (writesEverything(doc)) {
    const policy = requestPolicy(doc);
    const how = has(doc.flags, 'write') ? 'flags it write' : 'wants nothing back from each but success';
    return {
      reason: 'writesAll',
      why:
        `The server sends ${name} to every ${policy === 'all_nodes' ? 'node' : 'shard'} (request_policy:${policy ?? ''}) and ${how}; ` +
        `it names nothing to act on, so it acts on all there is${quoteSummary(doc)}. ${typeBack}`,
      confirmWith: name,
    };
  }
  return undefined;
}

/** In the @read ACL category: what an analyst may run. */
export function isRead(doc: CommandDoc | undefined): boolean {
  return has(doc?.categories, '@read');
}

/** In @dangerous (KEYS, SORT_RO, DEBUG…): never run by an analyst, whatever it reads. */
export function isDangerous(doc: CommandDoc | undefined): boolean {
  return has(doc?.categories, '@dangerous');
}

/**
 * A read the server puts in @fast (O(1) or O(log N), never a walk of a key's elements or of the
 * keyspace): GET, HGET, EXISTS. Every other run of an analyst's is one the server can feel, and
 * goes on the audit log.
 */
export function isCheapRead(doc: CommandDoc | undefined): boolean {
  return isRead(doc) && has(doc?.categories, '@fast');
}

/** Flagged `write`: refused on a read-only profile. A command COMMAND INFO does not describe counts as a write. */
export function isWrite(doc: CommandDoc | undefined): boolean {
  return described(doc) ? has(doc.flags, 'write') : true;
}

/** In @blocking (BLPOP, XREAD…), or flagged `blocking`: runs on a dedicated connection. Unknown: false. */
export function isBlocking(doc: CommandDoc | undefined): boolean {
  return has(doc?.categories, '@blocking') || has(doc?.flags, 'blocking');
}

/** The server's request_policy tip: where a node-wide command belongs on a cluster. */
export function requestPolicy(doc: CommandDoc | undefined): 'all_shards' | 'all_nodes' | undefined {
  if (has(doc?.tips, 'request_policy:all_shards')) return 'all_shards';
  if (has(doc?.tips, 'request_policy:all_nodes')) return 'all_nodes';
  return undefined;
}

/** The server tips it `response_policy:agg_sum` (DBSIZE): a cluster client answers the sum of every shard's count. */
export function sumsReplies(doc: CommandDoc | undefined): boolean {
  return has(doc?.tips, 'response_policy:agg_sum');
}

/** Indexes (into args, 0 = the command name) of the keys, from firstKey/lastKey/keyStep; [] for movablekeys (ask COMMAND GETKEYS). */
export function keyIndexes(doc: CommandDoc | undefined, argc: number): number[] {
  if (doc === undefined || has(doc.flags, 'movablekeys')) return [];
  const first = doc.firstKey ?? 0;
  if (first <= 0) return [];
  const lastKey = doc.lastKey ?? first;
  const last = lastKey < 0 ? argc + lastKey : lastKey;
  const step = doc.keyStep !== undefined && doc.keyStep > 0 ? doc.keyStep : 1;
  const out: number[] = [];
  for (let i = first; i <= last && i < argc; i += step) out.push(i);
  return out;
}
