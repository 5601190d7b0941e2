import { useCallback, useEffect, useRef, useState } from 'react';
import type { CallInput, CallName, CallOutput } from '../../app/contract';
import type { AppError } from '../../app/errors';
import { useBridge, useLinkStatus } from './BridgeContext';
import { toAppError } from './toAppError';

export interface CallState<T> {
  /** The last successful output for this input (kept while a later poll fails). */
  data: T | undefined;
  /** The latest attempt's error; cleared by the next success. */
  error: AppError | undefined;
  /** True until the first answer for this input. */
  loading: boolean;
  refresh(): void;
}

interface Options<T> {
  /** Poll: the next call starts this long after the previous one started (never overlapping). */
  intervalMs?: number;
  /** Called with every successful output, e.g. to append to a time series. */
  onData?: (data: T) => void;
}

interface Slot<T> {
  key: string | undefined;
  data: T | undefined;
  error: AppError | undefined;
  loading: boolean;
}

/**
 * Call `name` with `input` (skipped while `input` is undefined), again whenever the
 * input changes, after every reconnect of the link, and every `intervalMs` if given.
 * Inputs are compared by their JSON, which is also what goes over the wire.
 */
export function useCall<N extends CallName>(name: N, input: CallInput<N> | undefined, opts: Options<CallOutput<N>> = {}): CallState<CallOutput<N>> {
  const bridge = useBridge();
  const { epoch } = useLinkStatus();
  const inputJson = input === undefined ? undefined : JSON.stringify(input);
  const key = inputJson === undefined ? undefined : `${name}:${inputJson}`;
  const [nonce, setNonce] = useState(0);
  const [slot, setSlot] = useState<Slot<CallOutput<N>>>({
    key: undefined,
    data: undefined,
    error: undefined,
    loading: true,
  });
  const onData = useRef(opts.onData);
  useEffect(() => {
    onData.current = opts.onData;
  });
  const { intervalMs } = opts;

  useEffect(() => {
    if (key === undefined || inputJson === undefined) return;
    const args = JSON.parse(inputJson) as CallInput<N>;
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const run = () => {
      const started = Date.now();
      bridge
        .invoke(name, args)
        .then(
          (data) => {
            if (!alive) return;
            setSlot({ key, data, error: undefined, loading: false });
            onData.current?.(data);
          },
          (e: unknown) => {
            if (!alive) return;
            const error = toAppError(e);
            setSlot((s) => ({ key, data: s.key === key ? s.data : undefined, error, loading: false }));
          },
        )
        .finally(() => {
          if (!alive || intervalMs === undefined) return;
          timer = setTimeout(run, Math.max(0, intervalMs - (Date.now() - started)));
        });
    };
    run();
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [bridge, name, key, inputJson, intervalMs, epoch, nonce]);

  const refresh = useCallback(() => setNonce((n) => n + 1), []);
  // A slot filled for another input is not shown: a new input starts empty.
  if (slot.key !== key) return { data: undefined, error: undefined, loading: key !== undefined, refresh };
  return { data: slot.data, error: slot.error, loading: slot.loading, refresh };
}
