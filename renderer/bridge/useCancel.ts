import { useState } from 'react';
import type { AppError } from '../../app/errors';
import type { CancelCall } from '../../app/jobs';
import { useBridge } from './BridgeContext';
import { toAppError } from './toAppError';

/** The calls that stop a long job by its id: every job kind's, from the contract's job table (app/jobs.ts). */
export type { CancelCall };

export interface Cancel {
  cancel(): Promise<boolean>;
  busy: boolean;
  /** "Cancelling…" once asked (the final report follows on the job's stream), or `finishedNote`. */
  note: string | undefined;
  error: AppError | undefined;
}

/** Cancel a job: the call, its pending state, and what to say until the job's stream reports the end. */
export function useCancel(name: CancelCall, jobId: string, finishedNote: string): Cancel {
  const bridge = useBridge();
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string>();
  const [error, setError] = useState<AppError>();

  async function cancel(): Promise<boolean> {
    setBusy(true);
    setError(undefined);
    try {
      const { cancelled } = await bridge.invoke(name, { jobId });
      setNote(cancelled ? 'Cancelling…' : finishedNote);
      return true;
    } catch (e) {
      setError(toAppError(e));
      return false;
    } finally {
      setBusy(false);
    }
  }

  return { cancel, busy, note, error };
}
