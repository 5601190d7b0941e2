import { useState, type FormEvent } from 'react';
import { signIn, type SessionInfo } from './sessionApi';

/** The web build's sign-in. Messages come from the server and are shown as text. */
export function LoginForm({ onSignedIn }: { onSignedIn(s: SessionInfo): void }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onSignedIn(await signIn(username, password));
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="login-shell">
      <form className="panel login-panel" onSubmit={(e) => void submit(e)} aria-label="Sign in">
        <div className="brand login-brand">
          <span className="brand-mark" aria-hidden="true" />
          Cacheboard
        </div>
        <h2>Sign in</h2>
        <label className="login-field">
          <span>User name</span>
          <input name="username" type="text" autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} required autoFocus />
        </label>
        <label className="login-field">
          <span>Password</span>
          <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required />
        </label>
        {error !== undefined && (
          <div className="alert alert-error" role="alert" data-testid="login-error">
            {error}
          </div>
        )}
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted login-hint">Accounts are managed on the server: cacheboard user add NAME --role analyst|ops</p>
      </form>
    </div>
  );
}
