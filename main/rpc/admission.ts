import { contract, isName } from '../../app/contract';
import { roleAllows } from '../../app/define';
import { AppError } from '../../app/errors';
import type { CallRateLimit } from './callRateLimit';
import type { Session } from './session';
import { validationError } from './validationError';

export interface Refusal {
  session: Session;
  /** The contract name asked for. */
  name: string;
  /** As sent (not validated: the role check comes first). */
  input: unknown;
  message: string;
}

export interface Gate {
  session: Session;
  /** The session's userKey, the name limits count under. */
  user: string;
  rateLimit?: CallRateLimit;
  onRefused?: (refusal: Refusal) => void;
}

/**
 * Whether this session may make this call or stream, in the order that keeps the audit log
 * honest: a known name, signed in, within the rate limit, the role, and only then valid input.
 */
export function admit(gate: Gate, name: string, kind: 'call' | 'stream', input: unknown) {
  if (!isName(name) || contract[name].kind !== kind) {
    throw new AppError('UNKNOWN_CALL', `Unknown ${kind} "${name}"`);
  }
  const def = contract[name];
  const { session, user } = gate;
  if (session.role === null) throw new AppError('UNAUTHENTICATED', 'Sign in first');
  // Before the role check: refused attempts are written to the audit log, and must not flood it.
  if (gate.rateLimit !== undefined && !gate.rateLimit.take(user)) {
    throw new AppError('RATE_LIMITED', 'Too many requests from this user; wait a moment and try again.');
  }
  if (!roleAllows(session.role, def.role)) {
    // Read by a person on a page: the role, not the contract's call name (the audit entry keeps that).
    const refused = new AppError('FORBIDDEN', `Only ${def.role} users can do this; you are signed in as ${session.role}.`);
    gate.onRefused?.({ session, name, input, message: refused.message });
    throw refused;
  }
  const parsed = def.input.safeParse(input);
  if (!parsed.success) throw validationError(parsed.error);
  return { def, args: parsed.data as unknown };
}
