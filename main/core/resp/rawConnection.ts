import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { AppError } from '../../../app/errors';
import type { ProfileSpec } from '../../../app/schemas/connections';
import { DEFAULTS, toRedisOptions } from '../pool/connectionOptions';
import { mapRedisError, toAppError, type ErrorContext } from '../pool/redisErrors';
import { currentMasterSpec } from '../pool/sentinels';
import { prepareSsh, viaFor } from '../pool/sshVia';
import { refuseCluster } from '../pool/topology';
import { encodeCommand } from './encodeCommand';
import { readHandshake } from './handshake';

/**
 * A dedicated socket, already authenticated, named and on its DB, for the jobs
 * that speak RESP themselves (bulk load, sampling, audience, trials, MONITOR).
 * Not an ioredis client: the pipe writes ready-encoded RESP and parses replies
 * itself, which is what makes `redis-cli --pipe` speeds reachable.
 */
export interface RawConnection {
  /** net.Socket, or tls.TLSSocket (a subclass) when the profile uses TLS. */
  readonly socket: Socket;
  /** "host:port", for messages. */
  readonly address: string;
  /** CLIENT ID, so a control connection can `CLIENT KILL ID` it; undefined if ACL denies CLIENT ID. */
  readonly clientId: number | undefined;
  /** Half-close and wait for the server to close (at most 1 s), then destroy. */
  close(): Promise<void>;
  /** Drop the connection now; idempotent. */
  destroy(): void;
}

export interface RawConnectOptions {
  /** Covers TCP connect, TLS handshake and the AUTH/SETNAME/SELECT replies. */
  connectTimeoutMs?: number;
  /** CLIENT SETNAME value: the orchestrator finds concurrent loads in CLIENT LIST by it. */
  name?: string;
}

export const DEFAULT_BULK_CONNECTION_NAME = 'cacheboard-bulk';

const CLOSE_GRACE_MS = 1_000;

/**
 * A raw socket is one node's. A sentinel profile's goes to the master the
 * sentinels name at this moment (asked afresh each time, so a connection made
 * after a failover reaches the new master). A cluster profile is refused: one
 * node of a cluster holds only its slots' keys, and MOVED replies would come
 * back for the rest.
 */
export async function openRawConnection(profileSpec: ProfileSpec, db: number, opts: RawConnectOptions = {}): Promise<RawConnection> {
  const name = opts.name ?? DEFAULT_BULK_CONNECTION_NAME;
  // Redis refuses names with spaces, newlines or bytes outside '!'..'~' ("ERR Client names cannot contain …").
  if (!/^[!-~]+$/.test(name)) {
    throw new AppError('VALIDATION', `connection name "${name}" may only contain printable ASCII without spaces`, 'name');
  }
  refuseCluster(profileSpec, 'A job that opens its own connection (bulk load, sampling, trials, MONITOR)');
  const spec = await currentMasterSpec(profileSpec, opts.connectTimeoutMs);
  const timeoutMs = opts.connectTimeoutMs ?? DEFAULTS.connectTimeoutMs;
  const ctx: ErrorContext = { host: spec.host, port: spec.port, connectTimeoutMs: timeoutMs };
  if (spec.password !== undefined) ctx.password = spec.password;

  // Through SSH: a port forwarded to the server (as seen from the last SSH host), held while the socket lives.
  await prepareSsh(spec);
  const via = viaFor(spec);
  const to = via?.forward(spec) ?? spec;
  // The pool's TLS options (CA file, servername, rejectUnauthorized), so both paths verify alike.
  const tls = toRedisOptions(spec, 'dedicated', { db, via }).tls;
  const socket: Socket = tls === undefined ? tcpConnect({ host: to.host, port: to.port }) : tlsConnect({ ...tls, host: to.host, port: to.port });
  if (via !== undefined) socket.once('close', () => via.release());
  // Bulk writes are hundreds of KiB: Nagle never delays them, and the handshake is one write.
  socket.setNoDelay(true);
  socket.setKeepAlive(true, 30_000);
  // A permanent listener: an 'error' with none would crash the process between loads.
  socket.on('error', () => undefined);

  const commands: Buffer[] = [];
  // A named user with no password (an ACL `nopass` user) still signs in as itself: without AUTH the
  // socket would run as `default`, with rights the profile's user may not have. Any password passes nopass.
  if (spec.username !== undefined) commands.push(encodeCommand(['AUTH', spec.username, spec.password ?? '']));
  else if (spec.password !== undefined) commands.push(encodeCommand(['AUTH', spec.password]));
  commands.push(encodeCommand(['CLIENT', 'SETNAME', name]), encodeCommand(['SELECT', String(db)]), encodeCommand(['CLIENT', 'ID']));
  // Pipelined in one write (Node queues it until connected): one round trip for the whole handshake.
  socket.write(Buffer.concat(commands));

  const address = `${spec.host}:${spec.port}`;
  let replies: string[];
  try {
    replies = await readHandshake(socket, commands.length, timeoutMs);
  } catch (err) {
    socket.destroy();
    throw (await via?.failure()) ?? handshakeError(err, ctx, tls !== undefined);
  }
  // After a failed AUTH every later command says NOAUTH: the first error is the cause.
  const firstError = replies.slice(0, -1).find((r) => r.startsWith('-'));
  if (firstError !== undefined) {
    socket.destroy();
    throw toAppError(firstError.slice(1), ctx);
  }
  const idReply = replies[replies.length - 1] ?? '';
  const clientId = idReply.startsWith(':') ? Number(idReply.slice(1)) : undefined;

  const destroy = (): void => {
    if (socket.destroyed) return;
    // An RST rather than a FIN: Redis frees the client on its next read instead of
    // executing the commands still queued in its socket buffer. TLS sockets can't reset.
    if (tls === undefined) socket.resetAndDestroy();
    else socket.destroy();
  };
  const close = (): Promise<void> =>
    new Promise((resolve) => {
      if (socket.destroyed) return resolve();
      const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      socket.end();
    });
  return { socket, address, clientId, close, destroy };
}

function handshakeError(err: unknown, ctx: ErrorContext, tls: boolean): AppError {
  const mapped = mapRedisError(err, ctx);
  if (mapped.code === 'TIMEOUT' && tls) {
    // A plain Redis port reads a TLS ClientHello as an unfinished inline command and waits.
    return new AppError('TIMEOUT', `${mapped.message} TLS is on for this profile: if the server does not use TLS on this port, turn TLS off.`);
  }
  return new AppError(mapped.code, mapped.message);
}
