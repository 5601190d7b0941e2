import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from '../../../app/define';
import type { Session } from '../../rpc/session';
import { clearedCookie, cookieValue, SESSION_COOKIE, sessionCookie } from './cookies';
import type { LoginLimiter } from './loginLimiter';
import { verifyPassword } from './passwords';
import type { SessionStore } from './sessions';
import type { UserRecord } from './users';

/** Auth on: users sign in. Local: loopback only, one implicit ops user. */
export type AuthMode =
  | { kind: 'local' }
  | {
      kind: 'users';
      users: () => UserRecord[];
      sessions: SessionStore;
      limiter: LoginLimiter;
      /** Set the cookie's Secure flag (the server speaks TLS, or sits behind a TLS proxy). */
      secure: boolean;
      /** Cookie lifetime, matching the store's absolute limit. */
      maxAgeSeconds: number;
    };

/** Spent on an unknown user name too, so timing does not say which names exist. */
const DUMMY_HASH = 'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

export interface WebAuth {
  /** Who sent this request; null when auth is on and there is no valid session. */
  sessionOf(req: FastifyRequest): Session | null;
  /** The request's session token, to tie a WebSocket to it. */
  tokenOf(req: FastifyRequest): string | undefined;
  /** Whether a token still names a live session (WebSockets are closed when it doesn't). */
  alive(token: string | undefined): boolean;
  onLogout(cb: (token: string) => void): void;
}

export function registerAuth(app: FastifyInstance, mode: AuthMode): WebAuth {
  const logoutListeners: ((token: string) => void)[] = [];
  const tokenOf = (req: FastifyRequest) => cookieValue(req.headers.cookie, SESSION_COOKIE);

  const sessionOf = (req: FastifyRequest): Session | null => {
    if (mode.kind === 'local') return { role: 'ops', user: 'local' };
    const s = mode.sessions.get(tokenOf(req));
    return s === undefined ? null : { role: s.role, user: s.user };
  };

  app.get('/api/session', async (req) => {
    const s = sessionOf(req);
    return { authRequired: mode.kind === 'users', ...(s === null ? {} : { user: s.user, role: s.role }) };
  });

  app.post('/api/session', async (req, reply) => {
    if (mode.kind === 'local') return reply.code(400).send(err('VALIDATION', 'This server runs without users: there is nothing to sign in to.'));
    const body = (req.body ?? {}) as { username?: unknown; password?: unknown };
    const username = typeof body.username === 'string' ? body.username : '';
    const keys = [`user:${username.toLowerCase()}`, `addr:${req.ip}`];
    const wait = mode.limiter.retryAfter(keys);
    if (wait > 0) {
      const seconds = Math.ceil(wait / 1000);
      reply.header('retry-after', String(seconds));
      return reply.code(429).send(err('RATE_LIMITED', `Too many failed sign-ins; try again in ${seconds} s.`));
    }
    const user = mode.users().find((u) => u.name === username);
    // Always one scrypt, whether or not the user exists.
    const ok = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH);
    if (!ok || user === undefined) {
      mode.limiter.fail(keys);
      return reply.code(401).send(err('UNAUTHENTICATED', 'Wrong user name or password.'));
    }
    mode.limiter.succeed(keys);
    const token = mode.sessions.create(user.name, user.role);
    reply.header('set-cookie', sessionCookie(token, mode.maxAgeSeconds, mode.secure));
    return { user: user.name, role: user.role satisfies Role };
  });

  app.delete('/api/session', async (req, reply) => {
    if (mode.kind === 'users') {
      const token = tokenOf(req);
      mode.sessions.delete(token);
      if (token !== undefined) for (const cb of logoutListeners) cb(token);
      reply.header('set-cookie', clearedCookie(mode.secure));
    }
    return reply.code(204).send();
  });

  return {
    sessionOf,
    tokenOf,
    alive: (token) => mode.kind === 'local' || mode.sessions.get(token) !== undefined,
    onLogout: (cb) => logoutListeners.push(cb),
  };
}

function err(code: string, message: string) {
  return { error: { code, message } };
}
