import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { Bridge } from '../../app/bridge';
import type { ClientBridge, LinkStatus } from './link';

const Ctx = createContext<ClientBridge | null>(null);

export function BridgeProvider({ bridge, children }: { bridge: ClientBridge; children: ReactNode }) {
  return <Ctx.Provider value={bridge}>{children}</Ctx.Provider>;
}

function useClientBridge(): ClientBridge {
  const b = useContext(Ctx);
  if (b === null) throw new Error('useBridge must be used inside <BridgeProvider>');
  return b;
}

/** The Node side, whichever transport carries it. */
export function useBridge(): Bridge {
  return useClientBridge();
}

/** Link health for the shell (banner) and for hooks that re-fetch after a reconnect. */
export function useLinkStatus(): LinkStatus & { retryNow(): void } {
  const b = useClientBridge();
  const status = useSyncExternalStore(
    (cb) => b.onStatus(cb),
    () => b.status(),
  );
  return { ...status, retryNow: () => b.retryNow() };
}
