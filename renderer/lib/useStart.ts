import { useRef, useState } from 'react';
import type { AppError } from '../../app/errors';
import { toAppError } from '../bridge/toAppError';
import { besideField } from './formInput';

export interface Start<C extends string> {
  /** Runs `call` once per click (a double click lands before the disabled button renders). */
  start(call: () => Promise<void>): Promise<void>;
  starting: boolean;
  /** The server's refusal, beside the input its field names. */
  errors: Partial<Record<C, string>>;
  /** A refusal that names no input of the form. */
  error: AppError | undefined;
  /** Forget the last refusal (the form changed); with `inputs`, only what stands beside those. */
  clear(inputs?: readonly C[]): void;
}

/** Starting a job from a form whose inputs the contract checks: the pending state and where its refusal goes. */
export function useStart<C extends string>(controlOf: (field: string | undefined) => C | undefined): Start<C> {
  const [errors, setErrors] = useState<Partial<Record<C, string>>>({});
  const [error, setError] = useState<AppError>();
  const [starting, setStarting] = useState(false);
  const inFlight = useRef(false);

  function clear(inputs?: readonly C[]) {
    setError(undefined);
    if (inputs === undefined) setErrors({});
    else if (inputs.some((c) => errors[c] !== undefined)) {
      setErrors((e) => Object.fromEntries(Object.entries(e).filter(([k]) => !inputs.includes(k as C))) as Partial<Record<C, string>>);
    }
  }

  async function start(call: () => Promise<void>) {
    if (inFlight.current) return;
    inFlight.current = true;
    setStarting(true);
    clear();
    try {
      await call();
    } catch (e) {
      const err = toAppError(e);
      const control = controlOf(err.field);
      if (control === undefined) setError(err);
      else setErrors({ [control]: besideField(err.message, err.field) } as Partial<Record<C, string>>);
    } finally {
      setStarting(false);
      inFlight.current = false;
    }
  }

  return { start, starting, errors, error, clear };
}
