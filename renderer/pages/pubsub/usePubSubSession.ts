import { useSyncedSession } from '../../lib/useSyncedSession';
import { PubSubSession, type SubscribePlan } from './session';

/** The page's PubSubSession, synced with `plan` (compared by its JSON) and disposed on unmount. */
export function usePubSubSession(plan: SubscribePlan): PubSubSession {
  return useSyncedSession((bridge) => new PubSubSession(bridge), plan);
}
