import { parseArgs } from 'node:util';
import { AppError } from '../../app/errors';
import { oneOf } from './flags';

export const AUTH_MODES = ['auto', 'required'] as const;
export type AuthSetting = (typeof AUTH_MODES)[number];

/** What `cacheboard serve` takes on its command line; the rest comes from the environment. */
export interface ServeFlags {
  auth?: AuthSetting;
  /** Minutes after which a profile nobody watched is no longer recorded; 'never' records it all along. */
  historyIdle?: HistoryIdle;
}

/** Stop recording a profile's history after this many minutes unwatched, or never. */
export type HistoryIdle = number | 'never';

/** "never" or a whole number of minutes; the error names `name` (the flag or the variable). */
export function historyIdleOf(name: string, v: string | undefined): HistoryIdle | undefined {
  if (v === undefined) return undefined;
  if (v === 'never') return 'never';
  if (!/^\d+$/.test(v)) throw new AppError('VALIDATION', `${name} must be a whole number of minutes or "never", not "${v}"`, name);
  return Number(v);
}

export const SERVE_HELP = `Usage: cacheboard serve [--auth required|auto] [--history-idle-minutes N|never]

The web build: the UI, GET /api/health and the contract over /api/ws.

  --auth required   users must sign in, even on loopback (wins over CACHEBOARD_AUTH)
  --auth auto       sign-in whenever users exist or HOST is not loopback (default)
  --history-idle-minutes N
                    the Overview's history of every profile is recorded while serve
                    runs; stop recording a profile nobody has watched for N minutes
                    (0: only while watched). Default never (wins over
                    CACHEBOARD_HISTORY_IDLE_MINUTES)

Env: PORT (7379), HOST (127.0.0.1), REDIS_URL, CACHEBOARD_CONFIG, CACHEBOARD_AUTH,
     CACHEBOARD_USERS, CACHEBOARD_DATA_DIR, CACHEBOARD_SECRET_KEY,
     CACHEBOARD_PUBLIC_URL, CACHEBOARD_TLS_CERT/KEY, CACHEBOARD_IMPORT_DIR,
     CACHEBOARD_UPLOAD_LIMIT_MB, CACHEBOARD_HISTORY_IDLE_MINUTES. Without REDIS_URL or CACHEBOARD_CONFIG it
     starts a private redis-server.
`;

/** Flags to settings; every error names the flag. */
export function parseServeArgs(argv: string[]): ServeFlags {
  let values: { auth?: string | undefined; 'history-idle-minutes'?: string | undefined };
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: { auth: { type: 'string' }, 'history-idle-minutes': { type: 'string' } },
    }));
  } catch (e) {
    throw new AppError('VALIDATION', `${(e as Error).message}; see cacheboard serve --help`);
  }
  const auth = oneOf('auth', values.auth, AUTH_MODES);
  const historyIdle = historyIdleOf('--history-idle-minutes', values['history-idle-minutes']);
  return { ...(auth === undefined ? {} : { auth }), ...(historyIdle === undefined ? {} : { historyIdle }) };
}
