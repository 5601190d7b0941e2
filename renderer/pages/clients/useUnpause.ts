import { useState } from 'react';
import type { AppError } from '../../../app/errors';
import { useBridge } from '../../bridge/BridgeContext';
import { toAppError } from '../../bridge/toAppError';

/** CLIENT UNPAUSE of one node, once confirmed: resolves with the outcome in words, or keeps the refusal. */
export function useUnpause(profileId: string) {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError>();
  const run = async (address: string): Promise<string | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      // `confirm` is the word UNPAUSE: the server refuses an unpause without it.
      await bridge.invoke('clients.unpause', { profileId, address, confirm: 'UNPAUSE' });
      return `${address}: clients unpaused.`;
    } catch (e) {
      setError(toAppError(e));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error };
}
