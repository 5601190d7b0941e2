import { useCallback, useRef, useState } from 'react';
import type { CallInput, CallOutput } from '../../../../app/contract';
import type { AppError } from '../../../../app/errors';
import { useBridge } from '../../../bridge/BridgeContext';
import { toAppError } from '../../../bridge/toAppError';

export type EditOp = CallInput<'keys.edit'>['edit'];
export type EditDone = CallOutput<'keys.edit'>;

export interface Edit {
  /** Sends one edit; resolves with the answer, or undefined when it was refused (see `error`). */
  run(edit: EditOp): Promise<EditDone | undefined>;
  busy: boolean;
  error: AppError | undefined;
  clear(): void;
}

/** One key's edits: one at a time, the refusal kept for the view to show (a CONFLICT offers a reload). */
export function useEdit(where: { profileId: string; db: number; key: string }, onDone: (done: EditDone, edit: EditOp) => void): Edit {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError>();
  const inFlight = useRef(false);
  const { profileId, db, key } = where;

  const run = useCallback(
    async (edit: EditOp) => {
      if (inFlight.current) return undefined;
      inFlight.current = true;
      setBusy(true);
      setError(undefined);
      try {
        const done = await bridge.invoke('keys.edit', { profileId, db, key, edit });
        onDone(done, edit);
        return done;
      } catch (e) {
        setError(toAppError(e));
        return undefined;
      } finally {
        inFlight.current = false;
        setBusy(false);
      }
    },
    [bridge, profileId, db, key, onDone],
  );
  const clear = useCallback(() => setError(undefined), []);
  return { run, busy, error, clear };
}
