import type { Cluster, Redis } from 'ioredis';
import { AppError } from '../../../../app/errors';
import { contextOf, toAppError } from '../../pool/redisErrors';
import { READ_CHUNK_BYTES } from './decodeLimits';

/** A string value's first bytes, and its whole length. */
export interface ReadValue {
  bytes: Buffer;
  valueBytes: number;
}

/**
 * Reads at most `maxBytes` of a string value: STRLEN, then GETRANGE chunk by chunk, never a
 * GET (a 512 MB value would arrive whole). Chunks go one after another, so the shared
 * connection's other commands are never queued behind one huge reply. A value that grows or
 * shrinks between chunks is read as it is met: the read stops at the first short chunk.
 * `redis` is the profile's shared client or its Cluster (each command routed by the key's slot).
 */
export async function readValue(redis: Redis | Cluster, key: Buffer, maxBytes: number): Promise<ReadValue> {
  try {
    return await read(redis, key, maxBytes);
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw toAppError(e, redis.isCluster ? { label: 'the cluster' } : contextOf(redis as Redis));
  }
}

async function read(redis: Redis | Cluster, key: Buffer, maxBytes: number): Promise<ReadValue> {
  // One round trip: STRLEN fails (WRONGTYPE) when TYPE says why, so its error waits for TYPE's answer.
  const [type, len] = await Promise.all([redis.type(key), redis.strlen(key).catch((e: unknown) => e)]);
  if (type === 'none') throw new AppError('NOT_FOUND', 'No such key (it may have expired or been deleted)', 'key');
  if (type !== 'string') throw new AppError('VALIDATION', `The key holds a ${type}; only a string value can be decoded`, 'key');
  if (typeof len !== 'number') throw len;
  const want = Math.min(len, maxBytes);
  const chunks: Buffer[] = [];
  let got = 0;
  while (got < want) {
    const size = Math.min(READ_CHUNK_BYTES, want - got);
    const chunk = await redis.getrangeBuffer(key, got, got + size - 1);
    chunks.push(chunk);
    got += chunk.length;
    if (chunk.length < size) break;
  }
  return { bytes: Buffer.concat(chunks, got), valueBytes: Math.max(len, got) };
}
