import { AppError } from '../../../../app/errors';
import { DEFAULT_MAX_AGE_MS } from './keyIndex';

/** Where the age is set: minutes, in the environment of `serve` or the desktop app. */
export const MAX_AGE_ENV = 'CACHEBOARD_INDEX_MAX_AGE_MIN';

/**
 * How long a kept index is reused before opening the Keys page scans again: `MAX_AGE_ENV`
 * minutes (a positive number; 0 re-scans on every open), else 15 min. Anything else is refused
 * naming the variable, at start, rather than silently keeping the default.
 */
export function indexMaxAgeMs(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[MAX_AGE_ENV];
  if (raw === undefined || raw.trim() === '') return DEFAULT_MAX_AGE_MS;
  const min = Number(raw);
  if (!Number.isFinite(min) || min < 0 || min > 7 * 24 * 60) {
    throw new AppError('VALIDATION', `${MAX_AGE_ENV} must be a number of minutes from 0 to 10080 (a week); it is ${JSON.stringify(raw)}`, MAX_AGE_ENV);
  }
  return min * 60_000;
}
