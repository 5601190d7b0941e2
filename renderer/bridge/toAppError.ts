import { AppError, ERROR_CODES, type ErrorCode } from '../../app/errors';

function isErrorCode(v: unknown): v is ErrorCode {
  return typeof v === 'string' && (ERROR_CODES as readonly string[]).includes(v);
}

/**
 * Anything a call can reject with, as an AppError. Electron's contextBridge copies
 * an Error across worlds with its message only (custom properties are lost), so a
 * plain `{ code, message, field }` object is accepted as well as an AppError.
 */
export function toAppError(e: unknown): AppError {
  if (e instanceof AppError) return e;
  if (typeof e === 'object' && e !== null) {
    const o = e as { code?: unknown; message?: unknown; field?: unknown };
    const message = typeof o.message === 'string' ? o.message : String(e);
    if (isErrorCode(o.code)) {
      return new AppError(o.code, message, typeof o.field === 'string' ? o.field : undefined);
    }
    return new AppError('INTERNAL', message);
  }
  return new AppError('INTERNAL', String(e));
}
