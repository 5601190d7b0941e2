import { AppError } from '../../../app/errors';
import type { SecretBox } from './types';

/** For when nothing can keep a password safe: every seal/open fails with the reason. */
export function noSecretBox(reason: string): SecretBox {
  return {
    availability: () => ({ available: false, reason }),
    seal(): string {
      throw new AppError('SECRETS_UNAVAILABLE', reason);
    },
    open(): string {
      throw new AppError('SECRETS_UNAVAILABLE', reason);
    },
  };
}
