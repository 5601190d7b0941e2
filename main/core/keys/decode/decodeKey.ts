import type { Cluster, Redis } from 'ioredis';
import type { DecodeAs, DecodeCompression, DecodeResult } from '../../../../app/schemas/keys';
import { DECODE_LIMITS, type DecodeLimits } from './decodeLimits';
import type { DecodeRunner } from './decodeRunner';
import { readValue } from './readValue';

export interface DecodeRequest {
  key: Buffer;
  as: DecodeAs;
  compression: DecodeCompression;
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
