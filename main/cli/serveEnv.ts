import { AppError } from '../../app/errors';
import { dataDirFrom } from './dataDir';

export interface ServeEnv {
  port: number;
  host: string;
  redisUrl?: string;
  configFile?: string;
  dataDir: string;
  secretKey?: string;
  allowRemote: boolean;
  importDir?: string;
  uploadLimitBytes?: number;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || host.startsWith('127.');
}

/** Reads `cacheboard serve`'s environment; errors name the variable. */
export function readServeEnv(env: NodeJS.ProcessEnv): ServeEnv {
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
    allowRemote: env.CACHEBOARD_ALLOW_REMOTE === '1',
  };
  if (env.REDIS_URL) out.redisUrl = env.REDIS_URL;
  if (env.CACHEBOARD_CONFIG) out.configFile = env.CACHEBOARD_CONFIG;
  if (env.CACHEBOARD_SECRET_KEY) out.secretKey = env.CACHEBOARD_SECRET_KEY;
  if (env.CACHEBOARD_IMPORT_DIR) out.importDir = env.CACHEBOARD_IMPORT_DIR;
  if (env.CACHEBOARD_UPLOAD_LIMIT_MB) {
    const mb = Number(env.CACHEBOARD_UPLOAD_LIMIT_MB);
    if (!Number.isInteger(mb) || mb < 1) {
      throw new AppError('VALIDATION', `CACHEBOARD_UPLOAD_LIMIT_MB must be a whole number of megabytes, not "${env.CACHEBOARD_UPLOAD_LIMIT_MB}"`, 'CACHEBOARD_UPLOAD_LIMIT_MB');
    }
    out.uploadLimitBytes = mb * 1024 * 1024;
  }
  return out;
}
