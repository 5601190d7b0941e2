import type { KeyType } from '../../../../app/schemas/sampling';
import type { KeysReader } from './indexTargets';

export interface Probed {
  key: Buffer;
  /** null: the key is gone (deleted or expired since it was listed). */
  type: KeyType | null;
  ttlMs: number | null;
  memory: number | null;
}

const TYPES = new Set(['string', 'list', 'set', 'zset', 'hash', 'stream']);

/**
 * TYPE and PTTL (and MEMORY USAGE … SAMPLES 5 with `memory`) of each key, sent all at once
 * (ioredis writes them back to back: one round trip per batch; a cluster routes each by slot).
 */
export async function probeKeys(reader: KeysReader, keys: readonly Buffer[], opts: { ttl?: boolean; memory?: boolean } = {}): Promise<Probed[]> {
  const client = await reader.keyed();
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
        return { key, type: t, ttlMs: t === null || ttl === null ? null : ttl, memory: typeof mem === 'number' ? mem : null };
      }),
    );
    out.push(...rows);
  }
  return out;
}
