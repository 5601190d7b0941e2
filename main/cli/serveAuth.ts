import { AppError } from '../../app/errors';
import { LoginLimiter } from '../server/auth/loginLimiter';
import { SessionStore } from '../server/auth/sessions';
import { readUsers } from '../server/auth/users';
import { watchUsers } from '../server/auth/userDirectory';
import type { AuthMode, SignInMode } from '../server/auth/webAuth';
import { roleAllows } from '../../app/define';
import type { JobOwner } from '../core/jobs/jobOwner';
import type { Runtime } from '../runtime';
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
  const why = users.length > 0 ? undefined : cfg.auth === 'required' ? cfg.authSetBy : isLoopback(cfg.host) ? undefined : `HOST=${cfg.host} is not loopback`;
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

/** How often the users file is checked for a change its directory watch did not report. */
const RECHECK_MS = 1_000;

/**
 * A job runs on for nobody who lost the right to it: when the users file changes, every running
 * job whose starter was removed, or demoted below the role the job needed, is cancelled and the
 * audit log says why. Jobs started in local mode (user "local") stop too once sign-in is on.
 */
export function revokeJobsOfLeavers(auth: AuthMode, runtime: Pick<Runtime, 'revokeJobs'>): void {
  const users = auth.kind === 'users' ? auth.users : auth.lock?.users;
  if (users === undefined) return;
  // A local server's file may change and still name nobody: it is open then, and its jobs are everyone's.
  let signedIn = auth.kind === 'users';
  const refuse = (owner: JobOwner): string | undefined => {
    signedIn ||= users.size() > 0;
    if (!signedIn) return undefined;
    const now = users.find(owner.user);
    if (now === undefined) return `its user "${owner.user}" is no longer in the users file`;
    if (!roleAllows(now.role, owner.role)) return `its user "${owner.user}" is now ${now.role}, and the job needs ${owner.role}`;
    return undefined;
  };
  users.onChange(() => runtime.revokeJobs(refuse));
  // The directory watch can miss an event (some filesystems send none): size() stats the file and,
  // on a change, calls the onChange listeners above.
  const recheck = setInterval(() => users.size(), RECHECK_MS);
  recheck.unref();
}
