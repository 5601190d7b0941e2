import { parseArgs } from 'node:util';
import { AppError } from '../../app/errors';
import { oneOf } from './flags';

export const AUTH_MODES = ['auto', 'required'] as const;
export type AuthSetting = (typeof AUTH_MODES)[number];

/** What `cacheboard serve` takes on its command line; the rest comes from the environment. */
export interface ServeFlags {
  auth?: AuthSetting;
}

export const SERVE_HELP = `Usage: cacheboard serve [--auth required|auto]

The web build: the UI, GET /api/health and the contract over /api/ws.

  --auth required   users must sign in, even on loopback (wins over CACHEBOARD_AUTH)
  --auth auto       sign-in whenever users exist or HOST is not loopback (default)

Env: PORT (7379), HOST (127.0.0.1), REDIS_URL, CACHEBOARD_CONFIG, CACHEBOARD_AUTH,
     CACHEBOARD_USERS, CACHEBOARD_DATA_DIR, CACHEBOARD_SECRET_KEY,
     CACHEBOARD_PUBLIC_URL, CACHEBOARD_TLS_CERT/KEY, CACHEBOARD_IMPORT_DIR,
     CACHEBOARD_UPLOAD_LIMIT_MB. Without REDIS_URL or CACHEBOARD_CONFIG it
     starts a private redis-server.
`;

/** Flags to settings; every error names the flag. */
export function parseServeArgs(argv: string[]): ServeFlags {
  let values: { auth?: string | undefined };
  try {
    ({ values } = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { auth: { type: 'string' } } }));
  } catch (e) {
    throw new AppError('VALIDATION', `${(e as Error).message}; see cacheboard serve --help`);
  }
  const auth = oneOf('auth', values.auth, AUTH_MODES);
  return auth === undefined ? {} : { auth };
}
