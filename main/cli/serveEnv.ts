import { isIP } from 'node:net';
import { AppError } from '../../app/errors';
import { dataDirFrom, usersFileFrom } from './dataDir';
import { historyIdleOf, type AuthSetting, type HistoryIdle, type ServeFlags } from './serveArgs';

export interface ServeEnv {
  port: number;
  host: string;
  redisUrl?: string;
  configFile?: string;
  dataDir: string;
  secretKey?: string;
  /** `required`: users must sign in even on loopback. `auto`: when users exist or HOST is not loopback. */
  auth: AuthSetting;
  /** Which setting chose `auth`, as the user wrote it: `--auth required`, `CACHEBOARD_AUTH=required`. */
  authSetBy: string;
  /** The users file (scrypt hashes); default $CACHEBOARD_DATA_DIR/users.json. */
  usersFile: string;
  /** The URL people open, e.g. https://cacheboard.example: its origin is the only one allowed on the WebSocket. */
  publicUrl?: string;
  /** Serve HTTPS with these PEM files. */
  tls?: { certFile: string; keyFile: string };
  importDir?: string;
  uploadLimitBytes?: number;
  /** Reverse proxies (IPs, CIDR ranges) whose X-Forwarded-For is believed, for the sign-in backoff. */
  trustedProxies?: string[];
  /** Most bytes serve holds unsent for one WebSocket before closing it (CACHEBOARD_WS_BUFFER_MB). */
  wsBufferBytes?: number;
  /** Stop recording a profile's Overview history after this many minutes unwatched ('never': record all along). */
  historyIdle: HistoryIdle;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

/** Reads `cacheboard serve`'s environment and flags (a flag wins over its variable); errors name the variable. */
export function readServeEnv(env: NodeJS.ProcessEnv, flags: ServeFlags = {}): ServeEnv {
  const rawPort = env.PORT ?? '7379';
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port < 1 || port > 65535) {
    throw new AppError('VALIDATION', `PORT must be a number between 1 and 65535, not "${rawPort}"`, 'PORT');
  }
  const host = env.HOST ?? '127.0.0.1';
  if (host.trim() === '') throw new AppError('VALIDATION', 'HOST must not be empty', 'HOST');
  const out: ServeEnv = {
    port,
    host,
    dataDir: dataDirFrom(env),
    auth: 'auto',
    authSetBy: 'default',
    usersFile: '',
    historyIdle: flags.historyIdle ?? historyIdleOf('CACHEBOARD_HISTORY_IDLE_MINUTES', env.CACHEBOARD_HISTORY_IDLE_MINUTES) ?? 'never',
  };
  out.usersFile = usersFileFrom(env);
  const auth = env.CACHEBOARD_AUTH ?? 'auto';
  if (auth !== 'auto' && auth !== 'required') {
    throw new AppError('VALIDATION', `CACHEBOARD_AUTH must be "auto" or "required", not "${auth}"`, 'CACHEBOARD_AUTH');
  }
  out.auth = flags.auth ?? auth;
  out.authSetBy = flags.auth !== undefined ? `--auth ${flags.auth}` : env.CACHEBOARD_AUTH === undefined ? 'default' : `CACHEBOARD_AUTH=${auth}`;
  if (env.CACHEBOARD_PUBLIC_URL) {
    let url: URL;
    try {
      url = new URL(env.CACHEBOARD_PUBLIC_URL);
    } catch {
      throw new AppError('VALIDATION', `CACHEBOARD_PUBLIC_URL is not a URL: "${env.CACHEBOARD_PUBLIC_URL}"`, 'CACHEBOARD_PUBLIC_URL');
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') {
      throw new AppError('VALIDATION', 'CACHEBOARD_PUBLIC_URL must be an http:// or https:// URL', 'CACHEBOARD_PUBLIC_URL');
    }
    out.publicUrl = url.origin;
  }
  const cert = env.CACHEBOARD_TLS_CERT;
  const key = env.CACHEBOARD_TLS_KEY;
  if ((cert === undefined) !== (key === undefined)) {
    throw new AppError(
      'VALIDATION',
      'Set both CACHEBOARD_TLS_CERT and CACHEBOARD_TLS_KEY, or neither',
      cert === undefined ? 'CACHEBOARD_TLS_CERT' : 'CACHEBOARD_TLS_KEY',
    );
  }
  if (cert !== undefined && key !== undefined) out.tls = { certFile: cert, keyFile: key };
  if (env.REDIS_URL) out.redisUrl = env.REDIS_URL;
  if (env.CACHEBOARD_CONFIG) out.configFile = env.CACHEBOARD_CONFIG;
  if (env.CACHEBOARD_SECRET_KEY) out.secretKey = env.CACHEBOARD_SECRET_KEY;
  if (env.CACHEBOARD_IMPORT_DIR) out.importDir = env.CACHEBOARD_IMPORT_DIR;
  if (env.CACHEBOARD_UPLOAD_LIMIT_MB) {
    const mb = Number(env.CACHEBOARD_UPLOAD_LIMIT_MB);
    if (!Number.isInteger(mb) || mb < 1) {
      throw new AppError(
        'VALIDATION',
        `CACHEBOARD_UPLOAD_LIMIT_MB must be a whole number of megabytes, not "${env.CACHEBOARD_UPLOAD_LIMIT_MB}"`,
        'CACHEBOARD_UPLOAD_LIMIT_MB',
      );
    }
    out.uploadLimitBytes = mb * 1024 * 1024;
  }
  if (env.CACHEBOARD_WS_BUFFER_MB) {
    const mb = Number(env.CACHEBOARD_WS_BUFFER_MB);
    if (!Number.isInteger(mb) || mb < 1) {
      throw new AppError(
        'VALIDATION',
        `CACHEBOARD_WS_BUFFER_MB must be a whole number of megabytes, not "${env.CACHEBOARD_WS_BUFFER_MB}"`,
        'CACHEBOARD_WS_BUFFER_MB',
      );
    }
    out.wsBufferBytes = mb * 1024 * 1024;
  }
  if (env.CACHEBOARD_TRUSTED_PROXIES) out.trustedProxies = trustedProxies(env.CACHEBOARD_TRUSTED_PROXIES);
  return out;
}

/** `127.0.0.1, 10.0.0.0/8, ::1`: IP addresses and CIDR ranges, checked here so a typo names the variable. */
function trustedProxies(raw: string): string[] {
  return raw.split(',').map((entry) => {
    const item = entry.trim();
    const [ip = '', prefix, ...extra] = item.split('/');
    const family = isIP(ip);
    const bits = family === 4 ? 32 : 128;
    // A /0 (trust every peer) is refused, as Fastify's trustProxy list refuses it.
    const prefixOk = prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) >= 1 && Number(prefix) <= bits);
    if (family === 0 || !prefixOk || extra.length > 0) {
      throw new AppError(
        'VALIDATION',
        `CACHEBOARD_TRUSTED_PROXIES: "${item}" is not an IP address or CIDR range (e.g. 127.0.0.1,10.0.0.0/8)`,
        'CACHEBOARD_TRUSTED_PROXIES',
      );
    }
    return item;
  });
}
