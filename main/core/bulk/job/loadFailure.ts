import { AppError } from '../../../../app/errors';
import { toAppError, type ErrorContext } from '../../pool/redisErrors';
import { PipeStopped } from '../../resp/pipeStopped';
import { InputError } from '../types';
import type { PipeResult } from '../../resp/types';
import { LoadCancelled } from './cancellation';
import { evictionMessage } from './evictionWatch';
import type { ServerFacts } from './serverFacts';

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

/** What the load's own stops saw: the eviction watch's count, the input guard's command. */
export interface OwnStops {
  evicted: number;
  /** The server's (a cluster: its first master's) maxmemory and policy, for the eviction message. */
  facts: Pick<ServerFacts, 'maxmemory' | 'maxmemoryPolicy'> | undefined;
  /** Where the evictions were: '' for one server, ' on the cluster's masters'. */
  where: string;
  forbidden: string | undefined;
  /** The DB the load writes, which a forbidden command reaches past. */
  db: number;
}

/**
 * The eviction watch and the input guard stop the pipe through its abort
 * signal, which it reports as a cancel: name what really stopped it. The
 * user's own cancel stands as a cancel.
 */
export function nameOwnStop(f: Failure, signal: AbortSignal, s: OwnStops): Failure {
  if (signal.aborted) return f;
  if (s.evicted > 0 && s.facts !== undefined) {
    return { ...f, outcome: 'failed', code: 'REDIS', message: evictionMessage(s.evicted, s.facts, s.where) };
  }
  if (s.forbidden !== undefined) {
    return {
      ...f,
      outcome: 'failed',
      code: 'VALIDATION',
      message: `The input contains ${s.forbidden}, which reaches past DB ${s.db} that this load writes; load one DB's commands per file, without ${s.forbidden}`,
    };
  }
  return f;
}
