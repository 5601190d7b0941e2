import type { Cluster, Redis } from 'ioredis';
import { AppError } from '../../../app/errors';
import { isCluster } from './client';
import { abandon } from './closeRedis';
import { contextOf, mapRedisError, type ErrorContext, type MappedError } from './redisErrors';

/** A failed connect: an AppError that also carries the short detail for connection state. */
export class ConnectError extends AppError {
  readonly detail: string;

  constructor(m: MappedError) {
    super(m.code, m.message);
    this.detail = m.detail;
  }
}

/**
 * Connect a lazyConnect client and wait for "ready" (after AUTH, SELECT and
 * ioredis' INFO ready check), rejecting with a mapped error within timeoutMs.
 *
 * ioredis' connect() rejects with a bare "Connection is closed." when the
 * socket closes before ready; the cause (ECONNREFUSED, WRONGPASS, ...) only
 * comes through the "error" event, so we keep the last one. Its own
 * connectTimeout covers the TCP handshake only: a peer that accepts but never
 * answers (a paused server, a non-Redis port) needs the outer timer.
 *
 * A Cluster is ready once a seed gave the slot map and CLUSTER INFO says ok;
 * the cause of a failure comes from its "node error" events. Pass `ctx` for a
 * Cluster (its options hold no single address).
 *
 * On failure the client is disconnected, so no reconnect loop survives.
 */
export async function connectReady(redis: Redis | Cluster, timeoutMs: number, context?: ErrorContext): Promise<void> {
  const ctx = context ?? (isCluster(redis) ? {} : contextOf(redis));
  let lastError: MappedError | undefined;
  const onError = (err: unknown): void => {
    lastError = mapRedisError(err, ctx);
  };
  redis.on('error', onError);
  redis.on('node error', onError);
  const where = ctx.label ?? `${ctx.host}:${ctx.port}`;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new ConnectError({
          code: 'TIMEOUT',
          message:
            `Timed out after ${timeoutMs} ms connecting to Redis at ${where}. ` +
            (tlsOf(redis)
              ? // A plain Redis port reads a TLS ClientHello as an unfinished inline command and waits.
                'TLS is on for this profile: if the server does not use TLS on this port, turn TLS off. ' +
                'Otherwise: is a firewall dropping the connection, or is the server paused or overloaded?'
              : 'Is a firewall dropping the connection, or is the server paused or overloaded?'),
          detail: `no answer within ${timeoutMs} ms at ${where}`,
        }),
      );
    }, timeoutMs);
  });
  try {
    await Promise.race([redis.connect(), timeout]);
  } catch (err) {
    abandon(redis);
    if (err instanceof ConnectError) throw err;
    throw new ConnectError(lastError ?? mapRedisError(err, ctx));
  } finally {
    clearTimeout(timer);
    redis.off('error', onError);
    redis.off('node error', onError);
  }
}

function tlsOf(redis: Redis | Cluster): boolean {
  return isCluster(redis) ? redis.options.redisOptions?.tls !== undefined : redis.options.tls !== undefined;
}
