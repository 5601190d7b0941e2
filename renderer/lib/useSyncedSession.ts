import { useEffect, useState, useSyncExternalStore } from 'react';
import type { Bridge } from '../../app/bridge';
import { useBridge } from '../bridge/BridgeContext';

/** Page state kept outside React that follows a plan (MonitorSession, PubSubSession). */
export interface SyncedSession<P> {
  listen(listener: () => void): () => void;
  getVersion(): number;
  sync(plan: P): void;
  dispose(): void;
}

/**
 * The page's session, made once, synced with `plan` (compared by its JSON) and disposed on
 * unmount; the caller renders again whenever the session says it changed (at most once a frame).
 */
export function useSyncedSession<P, S extends SyncedSession<P>>(make: (bridge: Bridge) => S, plan: P): S {
  const bridge = useBridge();
  const [session] = useState(() => make(bridge));
  useSyncExternalStore(session.listen, session.getVersion);
  const planJson = JSON.stringify(plan);
  useEffect(() => {
    session.sync(JSON.parse(planJson) as P);
  }, [session, planJson]);
  useEffect(() => () => session.dispose(), [session]);
  return session;
}
