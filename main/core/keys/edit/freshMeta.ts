import type { KeyMeta } from '../../../../app/schemas/keys';
import { keyRef } from '../keyRef';
import type { EditClient } from './runScript';

/**
 * Reads a key's metadata after an edit, so the view shows the key as the edit left it. The
 * edit runner takes one as a parameter: keys.get's full reader (main/core/keys/values/) is
 * passed once both are on one branch.
 */
export type MetaReader = (key: Buffer) => Promise<KeyMeta>;

const LENGTH: Record<string, string> = { string: 'STRLEN', hash: 'HLEN', list: 'LLEN', set: 'SCARD', zset: 'ZCARD', stream: 'XLEN' };

/**
 * TODO(keys-values): replace with keys.get's reader (main/core/keys/values/keyMeta.ts) at the
 * merge. Until then: TYPE, PTTL and the type's length only; the rest is null ("unknown").
 */
export function basicMetaReader(client: EditClient): MetaReader {
  return async (key) => {
    const [type, pttl] = await Promise.all([client.type(key), client.pttl(key)]);
    const known = type in LENGTH;
    const exists = type !== 'none';
    const length = known ? Number(await client.call(LENGTH[type] as string, key)) : null;
    return {
      key: keyRef(key),
      exists,
      type: !exists ? null : known ? (type as KeyMeta['type']) : 'other',
      moduleType: exists && !known ? type : null,
      encoding: null,
      length,
      memory: null,
      ttlMs: pttl === -2 ? null : pttl,
      freq: null,
      idleSeconds: null,
      evictionPolicy: null,
      dumpBytes: null,
    };
  };
}
