import type { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { AppError } from '../../../../app/errors';
import { EditOp, seenOf, type KeyMeta, type KeyRef, type Seen } from '../../../../app/schemas/keys';
import { hasFieldTtls } from '../../pool/commandSupport';
import { fullMetaReader } from './freshMeta';
import { runEdit } from './runEdit';
import type { EditClient } from './runScript';

/** Tests only: base64 of text or bytes, as the contract carries them. */
export const b64 = (v: string | Buffer): string => Buffer.from(v).toString('base64');

/** What a view of a key gone before it opened would send: the op's own type (any for TTL, rename, delete), nothing else known. */
function missing(op: string): Seen {
  const family = op.split('.')[0] ?? '';
  const type = (['string', 'hash', 'list', 'set', 'zset', 'stream'] as const).find((t) => t === family) ?? 'string';
  return { type, length: null, ttl: null, digest: null };
}

/** Tests only: what a view opened now would send as `seen` (keys.get's metadata), or a throw when there is no key. */
export async function openKey(client: EditClient, key: string | Buffer): Promise<Seen> {
  const seen = seenOf(await fullMetaReader(client)(Buffer.from(key)));
  if (seen === null) throw new Error('no such key to open');
  return seen;
}

/**
 * Tests only: an edit as the contract would hand it over (defaults applied), run on `client`.
 * An op without `seen` is sent as from a view opened just before it (the key as it is then;
 * a key that does not exist as a string the view showed), so a test of an element's own check
 * needs no open; a test of the key's check opens it first (openKey) and writes in between.
 */
export function editOn(client: Redis): (key: string | Buffer, op: Record<string, unknown>) => Promise<{ key: KeyRef; meta: KeyMeta }> {
  const read = fullMetaReader(client);
  return async (key, op) => {
    const bytes = Buffer.from(key);
    const seen = op.op === 'create' || 'seen' in op ? {} : { seen: seenOf(await read(bytes)) ?? missing(String(op.op)) };
    const target = { client, cluster: false, errorContext: { label: 'test server' }, can: { fieldTtls: await hasFieldTtls(client) } };
    return runEdit(target, bytes, EditOp.parse({ ...op, ...seen }), read);
  };
}

/** Tests only: the AppError a promise is rejected with (fails the test when it resolves). */
export async function refusal(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected a refusal, got a result');
}

export interface EditPair {
  /** The client edits run on (as the pool's would be). */
  mine: Redis;
  /** A second client, writing in between. */
  other: Redis;
  edit: ReturnType<typeof editOn>;
}

/** Tests only: a server of the test file's own, the two clients, and its DB flushed before each test. */
export function useEditPair(): EditPair {
  const redis = useRedis();
  const pair = {} as EditPair;
  beforeAll(async () => {
    pair.mine = await adminClient(redis());
    pair.other = await adminClient(redis());
    pair.edit = editOn(pair.mine);
  });
  afterAll(closeAdmins);
  beforeEach(async () => {
    await pair.other.flushdb();
  });
  return pair;
}
