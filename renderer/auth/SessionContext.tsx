import { createContext, useContext } from 'react';
import type { SessionInfo } from './sessionApi';

/** Who is signed in. The desktop app and local mode have no sign-in: authRequired is false. */
export const SessionContext = createContext<{ session: SessionInfo; signOut: () => void }>({
  session: { authRequired: false },
  signOut: () => undefined,
});

export function useSession() {
  return useContext(SessionContext);
}
