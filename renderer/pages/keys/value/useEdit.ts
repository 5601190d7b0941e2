import { useCallback, useRef, useState } from 'react';
import type { CallInput, CallOutput } from '../../../../app/contract';
import type { AppError } from '../../../../app/errors';
import type { Seen } from '../../../../app/schemas/keys';
import { useBridge } from '../../../bridge/BridgeContext';
import { toAppError } from '../../../bridge/toAppError';

type AnyEdit = CallInput<'keys.edit'>['edit'];
type WithoutSeen<T> = T extends unknown ? Omit<T, 'seen'> : never;
/** An edit as a view makes it: what the view showed of the key (`seen`) is added by useEdit, never forgotten by a view. */
export type EditOp = WithoutSeen<Exclude<AnyEdit, { op: 'create' }>>;
export type EditDone = CallOutput<'keys.edit'>;

export interface Edit {
  /** Sends one edit; resolves with the answer, or undefined when it was refused (see `error`). */
  run(edit: EditOp): Promise<EditDone | undefined>;
  busy: boolean;
  error: AppError | undefined;
  clear(): void;
}

/**
 * One key's edits: one at a time, the refusal kept for the view to show (a CONFLICT offers a
 * reload). Every edit carries `seen`, what the panel's metadata showed of the key (its pages
 * are read after it: ValuePanel), so the server refuses it when the key changed since.
 */
export function useEdit(where: { profileId: string; db: number; key: string }, seen: Seen | null, onDone: (done: EditDone, edit: EditOp) => void): Edit {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<AppError>();
  const inFlight = useRef(false);
  const { profileId, db, key } = where;

  const run = useCallback(
    async (edit: EditOp) => {
      if (inFlight.current || seen === null) return undefined;
      inFlight.current = true;
      setBusy(true);
      setError(undefined);
      try {
        const done = await bridge.invoke('keys.edit', { profileId, db, key, edit: { ...edit, seen } as AnyEdit });
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
    [bridge, profileId, db, key, seen, onDone],
  );
  const clear = useCallback(() => setError(undefined), []);
  return { run, busy, error, clear };
}
