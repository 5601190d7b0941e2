import { useEffect, useState, useSyncExternalStore } from 'react';
import { useBridge } from '../../bridge/BridgeContext';
import { MonitorSession, type WatchPlan } from './session';

/**
 * The page's MonitorSession, synced with `plan` (compared by its JSON) and
 * disposed on unmount. The caller renders again at most once per animation
 * frame that brought events.
 */
export function useMonitorSession(plan: WatchPlan): MonitorSession {
  const bridge = useBridge();
  const [session] = useState(() => new MonitorSession(bridge));
  useSyncExternalStore(session.listen, session.getVersion);
  const planJson = JSON.stringify(plan);
  useEffect(() => {
    session.sync(JSON.parse(planJson) as WatchPlan);
  }, [session, planJson]);
  useEffect(() => () => session.dispose(), [session]);
  return session;
}
