import { AppError } from '../../../../app/errors';
import type { EditOp } from '../../../../app/schemas/keys';
import { toAppError, type ErrorContext } from '../../pool/redisErrors';

/** What the user should do after any stale-view refusal. */
const RELOAD = 'reload the key and try again';

/** The input field a Redis refusal of an argument (BADARG) is about. */
function argumentField(op: EditOp): string | undefined {
  switch (op.op) {
    case 'create':
      return op.type === 'zset' ? 'edit.score' : op.type === 'stream' ? 'edit.field' : undefined;
    case 'zset.add':
      return 'edit.score';
    case 'zset.incr':
      return 'edit.by';
    case 'stream.add':
      return 'edit.id';
    default:
      return undefined;
  }
}

/**
 * An edit script's refusal as an AppError. The scripts' own refusals (scripts/prelude.ts) start
 * with STALE, EXISTS, TAKEN or BADARG; a replica's READONLY is READ_ONLY; anything else is
 * mapped as every Redis error is.
 */
export function editError(err: unknown, op: EditOp, ctx: ErrorContext): AppError {
  if (err instanceof AppError) return err;
  const message = err instanceof Error ? err.message : String(err);
  const own = /^(STALE|EXISTS|TAKEN|BADARG) (.*)$/s.exec(message);
  switch (own?.[1]) {
    case 'STALE':
      return new AppError('CONFLICT', `changed since you opened it: ${own[2]}; ${RELOAD}`);
    case 'EXISTS':
      return new AppError('CONFLICT', `Cannot create it: ${own[2]}. Open that key instead, or choose another name.`);
    case 'TAKEN':
      return new AppError('CONFLICT', `edit.to: ${own[2]}; confirm overwrite to replace it, or choose another name`, 'edit.to');
    case 'BADARG': {
      const field = argumentField(op);
      const text = (own[2] ?? '').replace(/^ERR /, '');
      return new AppError('VALIDATION', `${field === undefined ? '' : `${field}: `}Redis refused it: ${text}`, field);
    }
  }
  if (/^READONLY\b/.test(message)) {
    return new AppError(
      'READ_ONLY',
      'This server is a read-only replica: it refuses writes. Edit on its master (a sentinel or cluster profile always writes to the master).',
    );
  }
  return toAppError(err, ctx);
}
