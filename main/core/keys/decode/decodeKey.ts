import type { Cluster, Redis } from 'ioredis';
import type { DecodeAs, DecodeCompression, DecodeResult } from '../../../../app/schemas/keys';
import { requireDbZero } from '../../pool/topology';
import type { PoolApi, ProfileSpec } from '../../pool/types';
import { DECODE_LIMITS, type DecodeLimits } from './decodeLimits';
import type { DecodeRunner } from './decodeRunner';
import { readValue } from './readValue';

export interface DecodeRequest {
  key: Buffer;
  as: DecodeAs;
  compression: DecodeCompression;
}

/**
 * The client a key is read on: the pooled Cluster (it routes the key's commands by slot; DB 0
 * only), else the shared client of (connection, db), which follows a sentinel set's master.
 */
export async function decodeClient(pool: Pick<PoolApi, 'shared' | 'cluster'>, connectionId: string, spec: ProfileSpec, db: number): Promise<Redis | Cluster> {
  if (spec.topology?.kind === 'cluster') {
    requireDbZero(db);
    return pool.cluster(connectionId);
  }
  return pool.shared(connectionId, db);
}

/**
 * keys.decode: a string value's first `limits.readBytes` (16 MB) read in chunks, then
 * decompressed and decoded in the decode worker within its time and size limits.
 */
export async function decodeKey(redis: Redis | Cluster, runner: DecodeRunner, req: DecodeRequest, limits: DecodeLimits = DECODE_LIMITS): Promise<DecodeResult> {
  const { bytes, valueBytes } = await readValue(redis, req.key, limits.readBytes);
  const outcome = await runner.run({ bytes, as: req.as, compression: req.compression, valueBytes, limits });
  return { ...outcome, valueBytes, inputBytes: bytes.length };
}
