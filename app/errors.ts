/**
 * Error codes every layer shares. The renderer switches on `code`; `message` is
 * written for a person and says what to do; `field` names the offending input
 * field (dotted path) when there is one.
 */
export const ERROR_CODES = [
  'VALIDATION', // input failed the contract's schema or a semantic check
  'UNKNOWN_CALL', // no such call or stream name
  'BAD_MESSAGE', // the envelope itself was malformed
  'UNAUTHENTICATED', // no session
  'FORBIDDEN', // the session's role is too low
  'RATE_LIMITED', // too many attempts: wait as the message says
  'TOO_MANY_SUBSCRIPTIONS', // the socket or the user holds the most live subscriptions allowed: end one first
  'NOT_FOUND',
  'CONFLICT',
  'READ_ONLY', // e.g. a profile that comes from the server config file
  'SECRETS_UNAVAILABLE', // no safe place to store a password
  'AUDIT_UNAVAILABLE', // the audit log cannot be written, so a write that must be on it first was refused
  'UNREACHABLE', // TCP connect failed / refused
  'TIMEOUT', // connect or command timeout
  'AUTH_FAILED', // WRONGPASS / NOAUTH
  'NOPERM', // ACL denied a command or key
  'TLS', // handshake or certificate failure
  'REDIS', // any other error reply
  'DISCONNECTED', // the transport went away
  'CANCELLED', // the user (or shutdown) cancelled long work; nothing half-done is left
  'UNSUPPORTED', // the job cannot run on this profile's topology (yet), e.g. a Redis Cluster
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  field?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly field: string | undefined;

  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.field = field;
  }

  toInfo(): ErrorInfo {
    return this.field === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, field: this.field };
  }

  static from(info: ErrorInfo): AppError {
    return new AppError(info.code, info.message, info.field);
  }
}
