import { useSession } from './SessionContext';

/** Who is signed in, and the way out. Nothing in local mode or on the desktop. */
export function SessionBadge() {
  const { session, signOut } = useSession();
  if (!session.authRequired || session.user === undefined) return null;
  return (
    <div className="session-badge" data-testid="session-badge">
      <span>
        Signed in as <strong>{session.user}</strong> · {session.role}
      </span>
      <button type="button" className="btn btn-small" onClick={signOut}>
        Sign out
      </button>
    </div>
  );
}
