import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { LoginForm } from './LoginForm';
import { SessionContext } from './SessionContext';
import { fetchSession, SESSION_ENDED_EVENT, signOut, type SessionInfo } from './sessionApi';

type Gate = { kind: 'checking' } | { kind: 'error'; message: string } | { kind: 'login' } | { kind: 'in'; session: SessionInfo };

/**
 * The web build asks the server who it is before it opens the WebSocket: with
 * sign-in on and no session, the socket would be refused, so the sign-in form
 * comes first. `children` is a function so the bridge is created only once in.
 */
export function AuthGate({ children }: { children: () => ReactNode }) {
  const [gate, setGate] = useState<Gate>({ kind: 'checking' });

  useEffect(() => {
    fetchSession().then(
      (s) => setGate(s.authRequired && s.user === undefined ? { kind: 'login' } : { kind: 'in', session: s }),
      (e: unknown) => setGate({ kind: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
  }, []);

  useEffect(() => {
    // The socket was closed because the session ended: a full reload drops every
    // page's state and the old bridge, and lands on the sign-in form.
    const ended = () => window.location.reload();
    window.addEventListener(SESSION_ENDED_EVENT, ended);
    return () => window.removeEventListener(SESSION_ENDED_EVENT, ended);
  }, []);

  const out = useCallback(() => {
    void signOut().finally(() => window.location.reload());
  }, []);

  switch (gate.kind) {
    case 'checking':
      return <p className="login-checking">Connecting…</p>;
    case 'error':
      return (
        <div className="login-shell">
          <div className="panel login-panel alert alert-error" role="alert">
            Cannot reach the Cacheboard server: {gate.message}
          </div>
        </div>
      );
    case 'login':
      return <LoginForm onSignedIn={(session) => setGate({ kind: 'in', session })} />;
    case 'in':
      return <SessionContext.Provider value={{ session: gate.session, signOut: out }}>{children()}</SessionContext.Provider>;
  }
}
