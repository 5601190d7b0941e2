import { useEffect, useRef, useState } from 'react';
import type { StreamEvent, StreamInput, StreamName } from '../../app/contract';
import type { AppError } from '../../app/errors';
import { useBridge, useLinkStatus } from './BridgeContext';
import { toAppError } from './toAppError';

export interface StreamState<S> {
  value: S;
  /** Events the server dropped for this subscription because we were slow. */
  dropped: number;
  /** Why the stream ended, if it did with an error. */
  error: AppError | undefined;
  /** A batch has arrived and the stream has not ended. */
  live: boolean;
}

interface Slot<S> extends StreamState<S> {
  key: string | undefined;
}

/**
 * Subscribe to `name` while mounted (skipped while `input` is undefined) and fold
 * its batches into a value with `reduce`. A transport drop ends the stream; it is
 * subscribed again when the link reopens, keeping the folded value meanwhile.
 */
export function useStream<N extends StreamName, S>(
  name: N,
  input: StreamInput<N> | undefined,
  reduce: (state: S, events: StreamEvent<N>[]) => S,
  initial: S,
): StreamState<S> {
  const bridge = useBridge();
  const { epoch } = useLinkStatus();
  const inputJson = input === undefined ? undefined : JSON.stringify(input);
  const key = inputJson === undefined ? undefined : `${name}:${inputJson}`;
  const fold = useRef({ reduce, initial });
  useEffect(() => {
    fold.current = { reduce, initial };
  });
  const [slot, setSlot] = useState<Slot<S>>({ key: undefined, value: initial, dropped: 0, error: undefined, live: false });

  useEffect(() => {
    if (key === undefined || inputJson === undefined) return;
    let alive = true;
    const unsubscribe = bridge.subscribe(name, JSON.parse(inputJson) as StreamInput<N>, {
      onEvents: (events, dropped) => {
        if (!alive) return;
        setSlot((s) => ({
          key,
          value: fold.current.reduce(s.key === key ? s.value : fold.current.initial, events),
          dropped,
          error: undefined,
          live: true,
        }));
      },
      onEnd: (error) => {
        if (!alive) return;
        setSlot((s) =>
          s.key === key
            ? { ...s, live: false, error: error && toAppError(error) }
            : { key, value: fold.current.initial, dropped: 0, live: false, error: error && toAppError(error) },
        );
      },
    });
    return () => {
      alive = false;
      unsubscribe();
    };
  }, [bridge, name, key, inputJson, epoch]);

  if (slot.key !== key) return { value: initial, dropped: 0, error: undefined, live: false };
  return slot;
}
