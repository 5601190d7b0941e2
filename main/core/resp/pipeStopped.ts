import { AppError, type ErrorCode } from '../../../app/errors';
import type { PipeResult } from './types';

/**
 * Why a load stopped before every command was answered:
 * - errors: more error replies than maxErrors; writing stopped, and every command
 *   already sent was answered before this was thrown (counts are exact);
 * - cancelled: the signal fired; the socket was dropped, in-flight outcome unknown;
 * - disconnected: the socket closed or reset, in-flight outcome unknown;
 * - protocol: the server sent something that is not a RESP2 reply.
 */
export type PipeStopReason = 'errors' | 'cancelled' | 'disconnected' | 'protocol';

const CODES: Record<PipeStopReason, ErrorCode> = {
  errors: 'REDIS',
  cancelled: 'CANCELLED',
  disconnected: 'DISCONNECTED',
  protocol: 'INTERNAL',
};

/** A pipeLoad that did not complete, with the counts as far as they are known. */
export class PipeStopped extends AppError {
  readonly stoppedBy: PipeStopReason;
  readonly result: PipeResult;

  constructor(stoppedBy: PipeStopReason, message: string, result: PipeResult) {
    super(CODES[stoppedBy], message);
    this.name = 'PipeStopped';
    this.stoppedBy = stoppedBy;
    this.result = result;
  }
}

export function stopMessage(reason: PipeStopReason, r: PipeResult, address: string, maxErrors: number, detail = ''): string {
  switch (reason) {
    case 'errors': {
      const first = r.firstErrors[0];
      const where = first === undefined ? '' : `; first at ${first.position}: ${first.message}`;
      return `Stopped the load: too many errors (${r.errors} error replies, at most ${maxErrors} allowed)${where}`;
    }
    case 'cancelled':
      return `Load cancelled after ${r.replies} of ${r.commands} commands were acknowledged; outcome of in-flight commands unknown`;
    case 'disconnected':
      return r.replies === r.commands
        ? `Connection to ${address} lost after all ${r.commands} commands sent were acknowledged`
        : `Connection to ${address} lost after ${r.replies} of ${r.commands} commands were acknowledged; outcome of in-flight commands unknown`;
    case 'protocol':
      return `Unexpected reply from Redis at ${address} after ${r.replies} replies (${detail}): replies can no longer be matched to commands`;
  }
}
