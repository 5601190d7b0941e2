import type { Redis } from 'ioredis';
import { AppError } from '../../../app/errors';
import { abandon } from './closeRedis';
import { contextOf, mapRedisError, type MappedError } from './redisErrors';

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
 * On failure the client is disconnected, so no reconnect loop survives.
 */
export async function connectReady(redis: Redis, timeoutMs: number): Promise<void> {
  const ctx = contextOf(redis);
  let lastError: MappedError | undefined;
  const onError = (err: unknown): void => {
    lastError = mapRedisError(err, ctx);
  };
  redis.on('error', onError);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new ConnectError({
          code: 'TIMEOUT',
          message:
            `Timed out after ${timeoutMs} ms connecting to Redis at ${ctx.host}:${ctx.port}. ` +
            (redis.options.tls
              ? // A plain Redis port reads a TLS ClientHello as an unfinished inline command and waits.
                'TLS is on for this profile: if the server does not use TLS on this port, turn TLS off. ' +
                'Otherwise: is a firewall dropping the connection, or is the server paused or overloaded?'
              : 'Is a firewall dropping the connection, or is the server paused or overloaded?'),
          detail: `no answer within ${timeoutMs} ms at ${ctx.host}:${ctx.port}`,
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
  }
}
