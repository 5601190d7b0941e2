import { useEffect, useState, useSyncExternalStore } from 'react';
import { useBridge } from '../../bridge/BridgeContext';
import { PubSubSession, type SubscribePlan } from './session';

/** The page's PubSubSession, synced with `plan` (compared by its JSON) and disposed on unmount. */
export function usePubSubSession(plan: SubscribePlan): PubSubSession {
  const bridge = useBridge();
  const [session] = useState(() => new PubSubSession(bridge));
  useSyncExternalStore(session.listen, session.getVersion);
  const planJson = JSON.stringify(plan);
  useEffect(() => {
    session.sync(JSON.parse(planJson) as SubscribePlan);
  }, [session, planJson]);
  useEffect(() => () => session.dispose(), [session]);
  return session;
}
