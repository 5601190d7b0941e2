import type { KeyType } from '../../../../app/schemas/sampling';

/** What the deep index records per key (its own file: the index holds them and the deep pass fills them). */
export const DEEP_TYPES: readonly (KeyType | null)[] = [null, 'string', 'hash', 'list', 'set', 'zset', 'stream', 'other'];

/** Per key id: its type (index in DEEP_TYPES; 0 gone), PTTL (-1 none, -2 gone, -3 a hash's fields expire: probeKeys.ts FIELDS_EXPIRE) and MEMORY USAGE. */
export interface DeepColumns {
  type: Uint8Array;
  ttl: Float64Array;
  memory: Float64Array;
}
