import type { KeyType } from '../../../../app/schemas/sampling';
import { hasFieldTtls } from '../../pool/commandSupport';
import { hashFieldsExpire } from '../../pool/fieldTtls';
import type { KeysReader } from './indexTargets';

export interface Probed {
  key: Buffer;
  /** null: the key is gone (deleted or expired since it was listed). */
  type: KeyType | null;
  /** PTTL: -1 none, or FIELDS_EXPIRE (probed with `fieldTtls`). */
  ttlMs: number | null;
  memory: number | null;
}

/**
 * The ttlMs of a hash with no key TTL whose fields expire (hash-field expiration: Redis 7.4+,
 * Valkey 9; ../../pool/fieldTtls.ts): it has a TTL for the no-TTL filter, and none to sort or show (the
 * key itself does not expire), so it is neither -1 nor a time.
 */
export const FIELDS_EXPIRE = -3;

/** What a list shows of a probed ttlMs: FIELDS_EXPIRE is the key's own -1. */
export function shownTtl(ttlMs: number | null): number | null {
  return ttlMs === FIELDS_EXPIRE ? -1 : ttlMs;
}

const TYPES = new Set(['string', 'list', 'set', 'zset', 'hash', 'stream']);

/**
 * TYPE and PTTL (and MEMORY USAGE … SAMPLES 5 with `memory`) of each key, sent all at once
 * (ioredis writes them back to back: one round trip per batch; a cluster routes each by slot).
 * With `fieldTtls`, on a server whose COMMAND INFO has hash-field expiration, a hash without a
 * key TTL is checked for fields that expire (ttlMs FIELDS_EXPIRE); elsewhere nothing more is sent.
 */
export async function probeKeys(
  reader: KeysReader,
  keys: readonly Buffer[],
  opts: { ttl?: boolean; memory?: boolean; fieldTtls?: boolean } = {},
): Promise<Probed[]> {
  const client = await reader.keyed();
  const fields = opts.ttl !== false && opts.fieldTtls === true && (await hasFieldTtls(client));
  const out: Probed[] = [];
  const BATCH = 500;
  for (let i = 0; i < keys.length; i += BATCH) {
    const part = keys.slice(i, i + BATCH);
    const rows = await Promise.all(
      part.map(async (key) => {
        const [type, ttl, mem] = await Promise.all([
          client.type(key),
          opts.ttl === false ? Promise.resolve(null) : client.pttl(key),
          opts.memory === true ? (client.call('MEMORY', 'USAGE', key, 'SAMPLES', '5') as Promise<number | null>) : Promise.resolve(null),
        ]);
        const t: KeyType | null = type === 'none' ? null : TYPES.has(type) ? (type as KeyType) : 'other';
        const expiring = fields && t === 'hash' && ttl === -1 && (await hashFieldsExpire(client, key));
        return { key, type: t, ttlMs: t === null || ttl === null ? null : expiring ? FIELDS_EXPIRE : ttl, memory: typeof mem === 'number' ? mem : null };
      }),
    );
    out.push(...rows);
  }
  return out;
}
