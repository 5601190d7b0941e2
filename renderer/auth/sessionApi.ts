import type { Role } from '../../app/define';

export interface SessionInfo {
  authRequired: boolean;
  user?: string;
  role?: Role;
}

/** Fired when the server closes the socket because the session ended (signed out, expired). */
export const SESSION_ENDED_EVENT = 'cacheboard:session-ended';

async function errorText(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: unknown } };
    if (typeof body.error?.message === 'string') return body.error.message;
  } catch {
    // not JSON: fall through
  }
  return `The server answered ${res.status}.`;
}

export async function fetchSession(): Promise<SessionInfo> {
  const res = await fetch('/api/session', { credentials: 'same-origin' });
  if (!res.ok) throw new Error(await errorText(res));
  return (await res.json()) as SessionInfo;
}

export async function signIn(username: string, password: string): Promise<SessionInfo> {
  const res = await fetch('/api/session', {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (!res.ok) throw new Error(await errorText(res));
  const me = (await res.json()) as { user: string; role: Role };
  return { authRequired: true, ...me };
}

export async function signOut(): Promise<void> {
  await fetch('/api/session', { method: 'DELETE', credentials: 'same-origin' });
}
