import { useSyncedSession } from '../../lib/useSyncedSession';
import { MonitorSession, type WatchPlan } from './session';

/**
 * The page's MonitorSession, synced with `plan` (compared by its JSON) and
 * disposed on unmount. The caller renders again at most once per animation
 * frame that brought events.
 */
export function useMonitorSession(plan: WatchPlan): MonitorSession {
  return useSyncedSession((bridge) => new MonitorSession(bridge), plan);
}
