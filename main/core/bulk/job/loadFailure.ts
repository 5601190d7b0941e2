import { AppError } from '../../../../app/errors';
import { toAppError, type ErrorContext } from '../../pool/redisErrors';
import { PipeStopped } from '../../resp/pipeStopped';
import { InputError } from '../types';
import type { PipeResult } from '../../resp/types';
import { LoadCancelled } from './cancellation';

/** A check of ours failed (verification): the load stops with this code and message. */
export class LoadFailed extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'LoadFailed';
  }
}

/** How a load ended badly, for the report. */
export interface Failure {
  outcome: 'failed' | 'cancelled';
  /** An ErrorCode from app/errors (CANCELLED for a cancel). */
  code: string;
  message: string;
  /** The pipe's counts as far as it got, when it was the pipe that stopped. */
  result?: PipeResult;
  /** The connection dropped with commands in flight: how many were applied is unknown. */
  outcomeUnknown: boolean;
  /** The option or input an AppError named (a refusal points the page at its checkbox). */
  field?: string;
}

/**
 * Classify whatever stopped the load. The pipe rejects with PipeStopped (too
 * many errors, cancelled, disconnected: "outcome of in-flight commands
 * unknown", protocol), carrying its counts; a source throws InputError with
 * file:line:column; our own checks throw LoadFailed.
 */
export function classifyFailure(err: unknown, signal: AbortSignal, ctx: ErrorContext): Failure {
  const result = err instanceof PipeStopped ? { result: err.result } : {};
  if (err instanceof LoadCancelled || (err instanceof PipeStopped && err.stoppedBy === 'cancelled') || (signal.aborted && !(err instanceof InputError))) {
    const unknown = err instanceof PipeStopped && err.result.replies < err.result.commands;
    return { outcome: 'cancelled', code: 'CANCELLED', message: 'The load was cancelled', outcomeUnknown: unknown, ...result };
  }
  if (err instanceof InputError) {
    return { outcome: 'failed', code: 'VALIDATION', message: `Malformed input at ${err.message}`, outcomeUnknown: false };
  }
  if (err instanceof LoadFailed) {
    return { outcome: 'failed', code: err.code, message: err.message, outcomeUnknown: false };
  }
  if (err instanceof PipeStopped) {
    const unknown = err.stoppedBy !== 'errors' && err.result.replies < err.result.commands;
    return { outcome: 'failed', code: err.code, message: err.message, outcomeUnknown: unknown, ...result };
  }
  const app = err instanceof AppError ? err : toAppError(err, ctx);
  return { outcome: 'failed', code: app.code, message: app.message, outcomeUnknown: false, ...(app.field === undefined ? {} : { field: app.field }) };
}
