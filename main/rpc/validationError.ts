import type { z } from 'zod';
import { AppError } from '../../app/errors';

/** The first schema issue, as "field: message" with the field path named. */
export function validationError(err: z.ZodError, prefix = ''): AppError {
  const issue = err.issues[0];
  const path = issue ? [prefix, ...issue.path.map(String)].filter((s) => s !== '').join('.') : prefix;
  const msg = issue?.message ?? 'invalid input';
  const text = path !== '' && !msg.startsWith(path) ? `${path}: ${msg}` : msg;
  return new AppError('VALIDATION', text, path === '' ? undefined : path);
}
