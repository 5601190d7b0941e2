import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../../../app/define';
import type { Session } from '../../rpc/session';
import { originAllowed } from '../originCheck';
import { clearedCookie, cookieValue, SESSION_COOKIE, sessionCookie } from './cookies';
import type { LoginLimiter } from './loginLimiter';
import { verifyPassword } from './passwords';
import type { SessionStore, WebSession } from './sessions';
import type { KnownUser, UserDirectory } from './userDirectory';

/** Auth on: users sign in. */
export interface SignInMode {
  kind: 'users';
  users: UserDirectory;
  sessions: SessionStore;
  limiter: LoginLimiter;
  /** Set the cookie's Secure flag (the server speaks TLS, or sits behind a TLS proxy). */
  secure: boolean;
  /** Cookie lifetime, matching the store's absolute limit. */
  maxAgeSeconds: number;
  /** Proxies (IPs, CIDR ranges) whose X-Forwarded-For names the client that sign-ins are counted under. */
  trustedProxies?: string[];
}

/**
 * Auth on, or local: loopback only, one implicit ops user. A local server given `lock` follows
 * its users file and turns to sign-in for good once a user appears there (`cacheboard user add`
 * while it runs): it must never stay open while users exist.
 */
export type AuthMode = SignInMode | { kind: 'local'; lock?: Omit<SignInMode, 'kind'> & { log(message: string): void } };

/** Spent on an unknown user name too, so timing does not say which names exist. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export interface WebAuth {
  /**
   * Who sent this request; null when auth is on and there is no valid session. The role is read
   * live: after the user is removed, demoted or given a new password it is null, so a socket
   * holding this session is refused its next call even before it is closed. A local session's
   * role is null once the server has turned to sign-in.
   */
  sessionOf(req: FastifyRequest): Session | null;
  /** The request's session token, to tie a WebSocket to it (in local mode, one shared name for every socket). */
  tokenOf(req: FastifyRequest): string | undefined;
  /** Whether a token still names a live session (WebSockets are closed when it doesn't). */
  alive(token: string | undefined): boolean;
  /** A session ended by signing out or by revocation: close its WebSockets with this reason. */
  onSessionEnd(cb: (token: string, reason: string) => void): void;
  /** Whether the server is in local mode now (no sign-in, loopback Host names only). */
  isLocal(): boolean;
}

/** What local mode's sockets are tracked under: no real token (43 base64url characters) is this. */
const LOCAL_TOKEN = 'local-mode';

export function registerAuth(app: FastifyInstance, mode: AuthMode, allowedOrigins?: string[]): WebAuth {
  const endListeners: ((token: string, reason: string) => void)[] = [];
  const ended = (token: string, reason: string) => {
    for (const cb of endListeners) cb(token, reason);
  };
  const lock = mode.kind === 'local' ? mode.lock : undefined;
  let active: AuthMode = mode;

  /** A local server with a users file turns to sign-in as soon as the file names anyone. */
  const lockIfUsers = (): AuthMode => {
    if (active.kind === 'local' && lock !== undefined && lock.users.size() > 0) {
      const { log, ...signIn } = lock;
      active = { kind: 'users', ...signIn };
      log('A user was added: sign-in is now required, and pages opened without signing in were closed.');
      ended(LOCAL_TOKEN, 'sign-in required');
    }
    return active;
  };

  const tokenOf = (req: FastifyRequest) => (lockIfUsers().kind === 'local' ? LOCAL_TOKEN : cookieValue(req.headers.cookie, SESSION_COOKIE));

  /** Issued under the user's current record still (not removed, same role, same password). */
  const holds = (s: WebSession) => active.kind === 'users' && active.users.find(s.user)?.stamp === s.stamp;

  const current = (token: string | undefined): WebSession | undefined => {
    const m = lockIfUsers();
    if (m.kind === 'local' || token === undefined) return undefined;
    const s = m.sessions.get(token);
    if (s === undefined || holds(s)) return s;
    m.sessions.delete(token);
    ended(token, 'session revoked');
    return undefined;
  };

  const signInMode = mode.kind === 'users' ? mode : lock;
  if (signInMode !== undefined) {
    signInMode.users.onChange(() => {
      lockIfUsers();
      for (const token of signInMode.sessions.deleteWhere((s) => !holds(s))) ended(token, 'session revoked');
    });
    app.addHook('onClose', async () => signInMode.users.close());
  }

  const sessionOf = (req: FastifyRequest): Session | null => {
    if (lockIfUsers().kind === 'local') {
      return {
        user: 'local',
        get role(): Role | null {
          return lockIfUsers().kind === 'local' ? 'ops' : null;
        },
      };
    }
    const token = tokenOf(req);
    const s = current(token);
    if (s === undefined) return null;
    return {
      user: s.user,
      get role(): Role | null {
        return current(token)?.role ?? null;
      },
    };
  };

  app.get('/api/session', async (req) => {
    const s = sessionOf(req);
    return { authRequired: active.kind === 'users', ...(s === null ? {} : { user: s.user, role: s.role }) };
  });

  app.post('/api/session', async (req, reply) => {
    const mode = lockIfUsers();
    if (mode.kind === 'local') return reply.code(400).send(err('VALIDATION', 'This server runs without users: there is nothing to sign in to.'));
    const refused = notAnAttempt(req, reply, allowedOrigins);
    if (refused !== undefined) return refused;
    const body = (req.body ?? {}) as { username?: unknown; password?: unknown };
    const username = typeof body.username === 'string' ? body.username : '';
    // Counted here, before the scrypt, so parallel guesses see each other.
    const admission = mode.limiter.begin(username, req.ip);
    if (!admission.ok) {
      const seconds = Math.ceil(admission.retryAfterMs / 1000);
      reply.header('retry-after', String(seconds));
      const why =
        admission.reason === 'busy'
          ? `Another sign-in for this user or from this address is being checked; try again in ${seconds} s.`
          : `Too many failed sign-ins; try again in ${seconds} s.`;
      return reply.code(429).send(err('RATE_LIMITED', why));
    }
    let user: KnownUser | undefined;
    let ok = false;
    try {
      user = mode.users.find(username);
      // Always one scrypt, whether or not the user exists.
      ok = (await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH)) && user !== undefined;
    } finally {
      admission.settle(ok);
    }
    if (!ok || user === undefined) return reply.code(401).send(err('UNAUTHENTICATED', 'Wrong user name or password.'));
    const token = mode.sessions.create(user.name, user.role, user.stamp);
    reply.header('set-cookie', sessionCookie(token, mode.maxAgeSeconds, mode.secure));
    return { user: user.name, role: user.role satisfies Role };
  });

  app.delete('/api/session', async (req, reply) => {
    const mode = lockIfUsers();
    if (mode.kind === 'users') {
      const token = tokenOf(req);
      mode.sessions.delete(token);
      if (token !== undefined) ended(token, 'signed out');
      reply.header('set-cookie', clearedCookie(mode.secure));
    }
    return reply.code(204).send();
  });

  return {
    sessionOf,
    tokenOf,
    alive: (token) => (lockIfUsers().kind === 'local' ? token === LOCAL_TOKEN : current(token) !== undefined),
    onSessionEnd: (cb) => endListeners.push(cb),
    isLocal: () => lockIfUsers().kind === 'local',
  };
}

/**
 * A POST that is no sign-in attempt is refused before the limiter, so it cannot count against
 * anyone: a body that is not JSON (another site's form posts text/plain without a preflight)
 * or a request from another site (its Origin, or the browser's Sec-Fetch-Site).
 */
function notAnAttempt(req: FastifyRequest, reply: FastifyReply, allowedOrigins: string[] | undefined): FastifyReply | undefined {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    return reply.code(415).send(err('VALIDATION', 'Sign in with a JSON body: {"username": ..., "password": ...}'));
  }
  if (req.headers['sec-fetch-site'] === 'cross-site' || !originAllowed(req.headers.origin, req.headers.host, allowedOrigins)) {
    return reply.code(403).send(err('FORBIDDEN', 'Sign in from the Cacheboard page'));
  }
  return undefined;
}

function err(code: string, message: string) {
  return { error: { code, message } };
}
