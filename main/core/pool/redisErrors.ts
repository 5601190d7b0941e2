import type { Redis } from 'ioredis';
import { AppError, type ErrorCode } from '../../../app/errors';
import { formatHostPort } from '../../../app/hostPort';
import { addressBehind } from './sshAddresses';

/** Where the error happened, for messages a person can act on. */
export interface ErrorContext {
  host?: string;
  port?: number;
  connectTimeoutMs?: number;
  commandTimeoutMs?: number;
  /** Scrubbed from any text that came from outside, should it ever echo it. */
  password?: string;
  /**
   * Where, in words, when it is not one host:port: `cluster seeds a:1, b:2`,
   * `master "m" via sentinels a:1, b:2`. Wins over host and port in messages.
   */
  label?: string;
}

export interface MappedError {
  code: ErrorCode;
  /** A full sentence that says what to do. */
  message: string;
  /** A short phrase for connection-state detail, e.g. "connection refused at 10.0.0.5:6379". */
  detail: string;
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'EPROTO',
]);

function codeOf(err: unknown): string {
  return stringField(err, 'code') ?? '';
}

function stringField(err: unknown, field: string): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const v = (err as Record<string, unknown>)[field];
  return typeof v === 'string' ? v : undefined;
}

function within(ms: number | undefined): string {
  return ms === undefined ? 'the timeout' : `${ms} ms`;
}

function nameOf(err: unknown): string {
  return err instanceof Error ? err.name : '';
}

function textOf(err: unknown): string {
  if (err instanceof Error) return err.message;
  return typeof err === 'string' ? err : 'unknown error';
}

function scrub(text: string, password: string | undefined): string {
  return password === undefined || password === '' ? text : text.split(password).join('***');
}

function isTls(code: string, text: string): boolean {
  return (
    TLS_CODES.has(code) ||
    code.startsWith('ERR_TLS_') ||
    code.startsWith('ERR_SSL_') ||
    code.startsWith('CERT_') ||
    /wrong version number|SSL routines|certificate/i.test(text)
  );
}

function tlsHint(code: string, text: string): string {
  if (/wrong version number|ERR_SSL_WRONG_VERSION_NUMBER/i.test(code + text)) {
    return 'the server does not speak TLS on this port: turn TLS off for this profile or use the TLS port';
  }
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return 'the certificate does not name this host: set the TLS server name to one the certificate lists';
  }
  if (code === 'CERT_HAS_EXPIRED') return 'the server certificate has expired';
  if (TLS_CODES.has(code) && code !== 'EPROTO') {
    return 'the server certificate is not signed by a trusted CA: set the CA file to the CA that signed it';
  }
  return 'check the TLS settings (CA file, server name) against the server';
}

/** "host:port" from the context, else from a socket error's own address/port fields. */
function addressOf(err: unknown, ctx: ErrorContext): string | undefined {
  if (ctx.label !== undefined) return ctx.label;
  if (ctx.host !== undefined && ctx.port !== undefined) return `${ctx.host}:${ctx.port}`;
  if (typeof err === 'object' && err !== null && 'address' in err && 'port' in err) {
    const { address, port } = err as { address: unknown; port: unknown };
    if (typeof address === 'string' && typeof port === 'number') return `${address}:${port}`;
  }
  return undefined;
}

/**
 * Classify an ioredis, socket or Redis error into one of our codes, without
 * throwing. Without a context (a handler's stray error) messages name the
 * address only when the error itself carries it.
 */
export function mapRedisError(err: unknown, ctx: ErrorContext = {}): MappedError {
  if (err instanceof AppError) return { code: err.code, message: err.message, detail: err.message };
  // ioredis' Cluster gives up on its seeds with one error that carries the last node's cause.
  const lastNodeError = typeof err === 'object' && err !== null ? (err as { lastNodeError?: unknown }).lastNodeError : undefined;
  if (lastNodeError !== undefined && lastNodeError !== null) return mapRedisError(lastNodeError, ctx);
  const address = addressOf(err, ctx);
  const at = address ?? 'the server';
  const redisAt = address === undefined ? 'Redis' : `Redis at ${address}`;
  const code = codeOf(err);
  // ioredis prefixes errors from its INFO ready check; the reply text follows.
  const raw = scrub(textOf(err), ctx.password).replace(/^Ready check failed: /, '');
  const unreachable = (why: string, hint: string): MappedError => ({
    code: 'UNREACHABLE',
    message: `Cannot reach ${redisAt}: ${why}. ${hint}`,
    detail: `${why} at ${at}`,
  });

  switch (code) {
    case 'ECONNREFUSED':
      return unreachable('connection refused', 'Is the server running and the port right?');
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return unreachable('host unreachable', 'Check the host name and the network (VPN, firewall) between here and it.');
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return unreachable(`host name "${ctx.host ?? stringField(err, 'hostname') ?? '?'}" not found`, 'Check the spelling of the host name and DNS.');
    case 'ECONNRESET':
    case 'EPIPE':
      return unreachable('connection reset', 'The server or something in between closed the connection.');
    case 'ETIMEDOUT':
      return {
        code: 'TIMEOUT',
        message: `Timed out after ${within(ctx.connectTimeoutMs)} connecting to ${redisAt}. Is a firewall dropping the connection, or the host down?`,
        detail: `connect timeout at ${at}`,
      };
  }
  if (isTls(code, raw)) {
    return {
      code: 'TLS',
      message: `TLS handshake with ${redisAt} failed (${code || raw}): ${tlsHint(code, raw)}.`,
      detail: `TLS failure at ${at}`,
    };
  }
  if (raw === 'Command timed out') {
    return {
      code: 'TIMEOUT',
      message: `${redisAt} did not answer within ${within(ctx.commandTimeoutMs)}. It may be busy (a slow command, a fork for a save) or paused.`,
      detail: `command timeout at ${at}`,
    };
  }
  const sentinels = /^All sentinels are unreachable[^.]*\.(?:.*Last error: (.*))?/.exec(raw);
  if (sentinels) {
    const why = sentinels[1] ?? 'none answered, or none knows the master name';
    return {
      code: 'UNREACHABLE',
      message: `Cannot reach ${redisAt}: no sentinel gave its address (${why}). Check the sentinel addresses, credentials and master name.`,
      detail: `no sentinel answered for ${at}`,
    };
  }
  if (raw === 'None of startup nodes is available' || raw === 'Failed to refresh slots cache.') {
    return unreachable('no seed node answered', 'Check the seed addresses and that the cluster nodes are running.');
  }
  if (nameOf(err) === 'MaxRetriesPerRequestError' || raw === 'Connection is closed.' || raw.startsWith("Stream isn't writeable")) {
    // A Cluster client that never got a slot map closes its connection the same way: no seed answered.
    if (ctx.label?.startsWith('cluster seeds') === true) {
      return unreachable('no seed node answered', 'Check the seed addresses and that the cluster nodes are running.');
    }
    return unreachable('not connected', 'The connection dropped and is being re-established; try again shortly.');
  }
  if (/^WRONGPASS|invalid username-password pair|^ERR invalid password/.test(raw)) {
    return {
      code: 'AUTH_FAILED',
      message: `${redisAt} refused the login: wrong username or password.`,
      detail: `wrong username or password at ${at}`,
    };
  }
  if (/^NOAUTH/.test(raw)) {
    return {
      code: 'AUTH_FAILED',
      message: `${redisAt} requires a password: set the profile's password (and username, for an ACL user).`,
      detail: `password required at ${at}`,
    };
  }
  if (/^NOPERM/.test(raw)) {
    const what = raw.replace(/^NOPERM\s*/, '');
    return {
      code: 'NOPERM',
      message: `${redisAt} denied this by ACL: ${what}. Use a user with that permission.`,
      detail: `ACL denied at ${at}: ${what}`,
    };
  }
  if (/^LOADING/.test(raw)) {
    return {
      code: 'REDIS',
      message: `${redisAt} is loading its dataset into memory; try again when it is done.`,
      detail: `loading dataset at ${at}`,
    };
  }
  if (/cluster support disabled/i.test(raw)) {
    return {
      code: 'REDIS',
      message: `${redisAt} is not a cluster node (cluster support is disabled on it): choose the standalone or sentinel topology for it.`,
      detail: `not a cluster node at ${at}`,
    };
  }
  if (nameOf(err) === 'ReplyError' || /^[A-Z][A-Z_]+ /.test(raw)) {
    return { code: 'REDIS', message: `${redisAt} replied: ${raw}`, detail: raw };
  }
  const message = address === undefined ? `Internal error: ${raw}` : `Unexpected error talking to ${redisAt}: ${raw}`;
  return { code: 'INTERNAL', message, detail: raw };
}

export function toAppError(err: unknown, ctx: ErrorContext = {}): AppError {
  if (err instanceof AppError) return err;
  const m = mapRedisError(err, ctx);
  return new AppError(m.code, m.message);
}

/**
 * The context an ioredis client was built with, so callers need not carry it
 * around. A sentinel-mode client names the master it is connected to, or the
 * master name and sentinels before it has one (its host/port are unused).
 */
export function contextOf(redis: Redis): ErrorContext {
  const o = redis.options;
  const ctx: ErrorContext = { host: o.host ?? 'localhost', port: o.port ?? 6379 };
  if (o.sentinels !== undefined && o.sentinels !== null && o.sentinels.length > 0) {
    // ioredis types `stream` as always present; it is unset before the first connect.
    const socket = redis.stream as Redis['stream'] | undefined;
    if (socket?.remoteAddress !== undefined && socket.remotePort !== undefined) {
      ctx.host = socket.remoteAddress;
      ctx.port = socket.remotePort;
    } else {
      const list = o.sentinels.map((s) => {
        const host = s.host ?? 'localhost';
        const port = s.port ?? 26379;
        return addressBehind(redis, host, port) ?? formatHostPort({ host, port });
      });
      ctx.label = `master "${o.name ?? '?'}" via sentinels ${list.join(', ')}`;
    }
  }
  // Through SSH the client dials a forwarded loopback port: a person reads the server behind it.
  const real = ctx.label === undefined && ctx.host !== undefined && ctx.port !== undefined ? addressBehind(redis, ctx.host, ctx.port) : undefined;
  if (real !== undefined) ctx.label = real;
  if (o.connectTimeout !== undefined) ctx.connectTimeoutMs = o.connectTimeout;
  if (o.commandTimeout !== undefined) ctx.commandTimeoutMs = o.commandTimeout;
  if (o.password !== undefined) ctx.password = o.password;
  return ctx;
}

/** `catch (e) { throw toAppErrorFor(redis, e) }` in any core service. */
export function toAppErrorFor(redis: Redis, err: unknown): AppError {
  return toAppError(err, contextOf(redis));
}
