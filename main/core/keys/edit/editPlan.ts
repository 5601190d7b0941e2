import { randomBytes } from 'node:crypto';
import { AppError } from '../../../../app/errors';
import { MAX_STRING_PAGE, type EditOp, type Seen } from '../../../../app/schemas/keys';
import { keyBytes } from '../keyRef';
import { CREATE } from './scripts/createScript';
import { HASH_DELETE, HASH_SET, HASH_TTL } from './scripts/hashScripts';
import { DELETE, RENAME, TTL_REMOVE, TTL_SET } from './scripts/keyScripts';
import { LIST_PUSH, LIST_REMOVE, LIST_SET } from './scripts/listScripts';
import { SET_ADD, SET_REMOVE, ZSET_ADD, ZSET_INCR, ZSET_REMOVE } from './scripts/setScripts';
import { STREAM_ADD, STREAM_DELETE } from './scripts/streamScripts';
import { STRING_APPEND, STRING_SET } from './scripts/stringScripts';

export type ScriptArg = Buffer | string;

/** One edit as one script run: its keys (KEYS[1] is the key edited), its arguments, and the command it amounts to. */
export interface EditPlan {
  script: string;
  keys: Buffer[];
  args: ScriptArg[];
  /** The Redis command the edit amounts to, for the audit log (never its arguments). */
  command: string;
  /** The key the edit leaves (a rename's new name): the one whose metadata is returned. */
  after: Buffer;
}

const b = keyBytes;
const flag = (on: boolean) => (on ? '1' : '0');

/** Tombstones are unique per call: an item equal to one would be removed in its stead. */
function tombstone(): Buffer {
  return Buffer.concat([Buffer.from('\u0000cacheboard:tombstone:'), randomBytes(16)]);
}

/** The part of `create` its type needs (a hash's field, a zset's score), or VALIDATION naming it. */
function createExtra(op: Extract<EditOp, { op: 'create' }>): ScriptArg {
  const needs = op.type === 'hash' || op.type === 'stream' ? 'field' : op.type === 'zset' ? 'score' : null;
  for (const part of ['field', 'score'] as const) {
    if (part !== needs && op[part] !== undefined) throw new AppError('VALIDATION', `edit.${part}: a new ${op.type} takes no ${part}`, `edit.${part}`);
  }
  if (needs === null) return '';
  const given = op[needs];
  if (given === undefined)
    throw new AppError(
      'VALIDATION',
      `edit.${needs}: a new ${op.type} needs a ${needs === 'field' ? 'first field' : 'score for its first member'}`,
      `edit.${needs}`,
    );
  return needs === 'field' ? b(given) : given;
}

/** What the server can do that an edit depends on (../../pool/commandSupport.ts). */
export interface ServerCan {
  /** Hash-field expiration: HPEXPIRETIME, HEXPIRE, HPERSIST. */
  fieldTtls: boolean;
}

/** The type an op edits, or null for the ops that fit any type (TTL, rename, delete). */
function typeOf(op: Exclude<EditOp, { op: 'create' }>): Seen['type'] | null {
  const dot = op.op.indexOf('.');
  const family = dot < 0 ? op.op : op.op.slice(0, dot);
  return family === 'ttl' || family === 'rename' || family === 'delete' ? null : (family as Seen['type']);
}

/** ARGV[1..4] of every checked script (scripts/prelude.ts CHECKED): what the view showed of the key. */
function seenArgs(op: Exclude<EditOp, { op: 'create' }>): ScriptArg[] {
  const { seen } = op;
  const edits = typeOf(op);
  if (edits !== null && seen.type !== edits)
    throw new AppError('VALIDATION', `edit.seen.type: a ${op.op} edits a ${edits}, but the view showed a ${seen.type}`, 'edit.seen.type');
  return [seen.type, seen.length === null ? '' : String(seen.length), seen.ttl ?? '', seen.digest ?? ''];
}

/** The script, keys and arguments of one edit of `key`. */
export function editPlan(key: Buffer, op: EditOp, can: ServerCan): EditPlan {
  if (op.op === 'create') {
    const ttl = op.ttlSeconds === null ? '' : String(op.ttlSeconds);
    return {
      script: CREATE,
      keys: [key],
      args: [op.type, b(op.value), createExtra(op), ttl],
      command: `${CREATE_COMMAND[op.type]}${ttl === '' ? '' : ' + EXPIRE'}`,
      after: key,
    };
  }
  const seen = seenArgs(op);
  const one = (script: string, command: string, args: ScriptArg[]): EditPlan => ({ script, keys: [key], args: [...seen, ...args], command, after: key });
  switch (op.op) {
    case 'string.set':
      return one(STRING_SET, 'SET', [op.expectSha1, String(MAX_STRING_PAGE), b(op.value)]);
    case 'string.append':
      return one(STRING_APPEND, 'APPEND', [b(op.value)]);
    case 'hash.set':
      return one(HASH_SET, can.fieldTtls ? 'HSET + HPEXPIREAT' : 'HSET', [
        b(op.field),
        b(op.value),
        flag(op.expectValue !== null),
        op.expectValue === null ? '' : b(op.expectValue),
        flag(can.fieldTtls),
      ]);
    case 'hash.delete':
      return one(HASH_DELETE, 'HDEL', [b(op.field), b(op.expectValue)]);
    case 'hash.ttl':
      if (!can.fieldTtls)
        throw new AppError(
          'VALIDATION',
          'edit.ttlSeconds: this server has no hash-field expiration (HEXPIRE, HPERSIST: Redis 7.4+, Valkey 9), so a field cannot have a TTL here',
          'edit.ttlSeconds',
        );
      return one(HASH_TTL, op.ttlSeconds === null ? 'HPERSIST' : 'HEXPIRE', [
        b(op.field),
        b(op.expectValue),
        op.ttlSeconds === null ? '' : String(op.ttlSeconds),
      ]);
    case 'list.push':
      return one(LIST_PUSH, op.end === 'head' ? 'LPUSH' : 'RPUSH', [op.end, b(op.value)]);
    case 'list.set':
      return one(LIST_SET, 'LSET', [String(op.index), b(op.expectValue), b(op.value)]);
    case 'list.remove':
      return one(LIST_REMOVE, 'LSET + LREM', [String(op.index), b(op.expectValue), tombstone()]);
    case 'set.add':
      return one(SET_ADD, 'SADD', [b(op.member)]);
    case 'set.remove':
      return one(SET_REMOVE, 'SREM', [b(op.member)]);
    case 'zset.add':
      return one(ZSET_ADD, 'ZADD', [b(op.member), op.score, flag(op.expectScore !== null), op.expectScore ?? '']);
    case 'zset.incr':
      return one(ZSET_INCR, 'ZINCRBY', [b(op.member), op.by]);
    case 'zset.remove':
      return one(ZSET_REMOVE, 'ZREM', [b(op.member)]);
    case 'stream.add':
      return one(STREAM_ADD, 'XADD', [op.id, ...op.fields.flatMap((f) => [b(f.field), b(f.value)])]);
    case 'stream.delete':
      return one(STREAM_DELETE, 'XDEL', [op.id]);
    case 'ttl.set':
      return one(TTL_SET, 'EXPIRE', [String(op.ttlSeconds)]);
    case 'ttl.remove':
      return one(TTL_REMOVE, 'PERSIST', []);
    case 'rename': {
      const to = b(op.to);
      if (to.equals(key)) throw new AppError('VALIDATION', "edit.to: the new name is the key's own name", 'edit.to');
      return { script: RENAME, keys: [key, to], args: [...seen, flag(op.overwrite)], command: op.overwrite ? 'RENAME' : 'RENAMENX', after: to };
    }
    case 'delete':
      return one(DELETE, 'UNLINK', []);
  }
}

const CREATE_COMMAND = { string: 'SET', hash: 'HSET', list: 'RPUSH', set: 'SADD', zset: 'ZADD', stream: 'XADD' } as const;
