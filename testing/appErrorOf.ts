import { AppError } from '../app/errors';

/** Tests only: the AppError `fn` throws; anything else it throws is rethrown, and no throw fails the test. */
export function appErrorOf(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected an AppError');
}
