import { AppError } from '../../app/errors';
import { LoginLimiter } from '../server/auth/loginLimiter';
import { SessionStore } from '../server/auth/sessions';
import { readUsers } from '../server/auth/users';
import { watchUsers } from '../server/auth/userDirectory';
import type { AuthMode, SignInMode } from '../server/auth/webAuth';
import { isLoopback, type ServeEnv } from './serveEnv';

const SESSION_HOURS = 12;

/**
 * Auth is on whenever users exist, whenever the server binds beyond loopback,
 * or when `--auth required` / CACHEBOARD_AUTH=required. On with no users, the server refuses to
 * start: there is no default user and no default password.
 */
export function authModeFor(cfg: ServeEnv): AuthMode {
  // Read now to decide the mode (a broken file stops the start with its error), then followed.
  const users = readUsers(cfg.usersFile);
  const why =
    users.length > 0 ? undefined : cfg.auth === 'required' ? cfg.authSetBy : isLoopback(cfg.host) ? undefined : `HOST=${cfg.host} is not loopback`;
  if (users.length === 0 && why === undefined) {
    // Open until the first user appears, then signed in for good (webAuth's lock).
    return { kind: 'local', lock: { ...signIn(cfg), log: (m) => console.log(`${m} (users from ${cfg.usersFile})`) } };
  }
  if (users.length === 0) {
    throw new AppError(
      'VALIDATION',
      `Sign-in is required (${why}) but ${cfg.usersFile} has no users. Add one first: ` +
        'cacheboard user add NAME --role ops (it asks for the password; scripts use --password-stdin).',
      'users',
    );
  }
  return { kind: 'users', ...signIn(cfg) };
}

/** Users followed while serving: `cacheboard user add/remove` applies at once, to sign-ins and to open sessions. */
function signIn(cfg: ServeEnv): Omit<SignInMode, 'kind'> {
  return {
    users: watchUsers(cfg.usersFile),
    sessions: new SessionStore({ absoluteMs: SESSION_HOURS * 3600_000 }),
    limiter: new LoginLimiter(),
    secure: cfg.tls !== undefined || cfg.publicUrl?.startsWith('https:') === true,
    maxAgeSeconds: SESSION_HOURS * 3600,
    ...(cfg.trustedProxies === undefined ? {} : { trustedProxies: cfg.trustedProxies }),
  };
}
