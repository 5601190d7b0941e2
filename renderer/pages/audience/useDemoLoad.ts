import { useEffect, useRef } from 'react';
import type { AppError } from '../../../app/errors';
import { useStream } from '../../bridge/useStream';
import { demoFraction, EMPTY_DEMO, foldDemo, type DemoView } from './demo';

export interface DemoLoadState {
  view: DemoView;
  fraction: number | undefined;
  streamError: AppError | undefined;
}

/** One demo load, followed over `audience.demoProgress`; `onDone` runs once when it wrote everything. */
export function useDemoLoad(jobId: string | undefined, onDone: () => void): DemoLoadState {
  const stream = useStream('audience.demoProgress', jobId === undefined ? undefined : { jobId }, foldDemo, EMPTY_DEMO);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });
  const outcome = stream.value.outcome;
  useEffect(() => {
    // A cancelled load keeps what it wrote: worth a new scan too.
    if (outcome === 'done' || outcome === 'cancelled') done.current();
  }, [outcome, jobId]);
  return { view: stream.value, fraction: demoFraction(stream.value), streamError: stream.error };
}
