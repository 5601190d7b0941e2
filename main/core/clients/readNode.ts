import type { Redis } from 'ioredis';
import type { BufferLimits } from '../../../app/schemas/clients';
import { toAppErrorFor } from '../pool/redisErrors';
import { parseBufferLimits } from './bufferLimits';

export interface NodeRead {
  /** CLIENT LIST as bytes: names and commands are whatever clients sent. */
  reply: Buffer;
  limits?: BufferLimits;
  /** Why there are no limits, said once per node. */
  limitsNote?: string;
}

const LIMIT = 'client-output-buffer-limit';

/**
 * The limits CONFIG GET gives, or why not: ACL may deny config|get, a managed service may
 * rename or drop CONFIG. Either way the list goes on without the "near the limit" highlight.
 */
async function readLimits(redis: Redis, address: string): Promise<Pick<NodeRead, 'limits' | 'limitsNote'>> {
  let reply: unknown;
  try {
    reply = await redis.config('GET', LIMIT);
  } catch (err) {
    const e = toAppErrorFor(redis, err);
    return { limitsNote: `CONFIG GET ${LIMIT} was refused on ${address} (${e.code}: ${e.message}): output buffers are not compared with their limits there.` };
  }
  const pairs = Array.isArray(reply) ? reply.map(String) : [];
  const at = pairs.findIndex((v, i) => i % 2 === 0 && v.toLowerCase() === LIMIT);
  const limits = at < 0 ? undefined : parseBufferLimits(pairs[at + 1] ?? '');
  return limits === undefined
    ? { limitsNote: `CONFIG GET ${LIMIT} on ${address} gave no limits this page can read: output buffers are not compared with their limits there.` }
    : { limits };
}

/** One node's CLIENT LIST and output-buffer limits, on the pool's monitoring connection to it. */
export async function readNode(redis: Redis, address: string): Promise<NodeRead> {
  const [reply, limits] = await Promise.all([
    redis.callBuffer('CLIENT', 'LIST').catch((err: unknown) => {
      throw toAppErrorFor(redis, err);
    }),
    readLimits(redis, address),
  ]);
  if (!Buffer.isBuffer(reply)) throw new Error(`CLIENT LIST on ${address} did not answer with text`);
  return { reply, ...limits };
}
