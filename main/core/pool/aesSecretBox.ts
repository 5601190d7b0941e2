import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import { AppError } from '../../../app/errors';
import type { SecretBox } from './types';

const VERSION = 'v1';
/** Fixed salt: there is one key per deployment, derived once, so a per-key salt buys nothing. */
const SALT = 'cacheboard/aesSecretBox/v1';
/** Bound to the format: a v1 ciphertext cannot be replayed under another version's parser. */
const AAD = Buffer.from(`cacheboard:${VERSION}`);
export const MIN_SECRET_LENGTH = 16;

/**
 * AES-256-GCM with a key stretched by scrypt from a secret string (the web
 * build's CACHEBOARD_SECRET_KEY). Sealed: "v1:<iv b64>:<tag b64>:<ciphertext b64>".
 * GCM's tag makes any change to iv, tag or ciphertext fail to open.
 */
export function aesSecretBox(secret: string): SecretBox {
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new AppError('VALIDATION', `The secret key is too short (${secret.length} characters); use at least ${MIN_SECRET_LENGTH} random characters.`);
  }
  const key = scryptSync(secret, SALT, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });

  return {
    availability: () => ({ available: true }),

    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(AAD);
      const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64'), tag.toString('base64'), ct.toString('base64')].join(':');
    },

    open(sealed: string): string {
      const parts = sealed.split(':');
      const [version, iv, tag, ct] = parts;
      if (parts.length !== 4 || version !== VERSION || iv === undefined || tag === undefined || ct === undefined) {
        throw new AppError('SECRETS_UNAVAILABLE', `A stored password is not in a format this version can read (${VERSION} expected).`);
      }
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
        decipher.setAAD(AAD);
        decipher.setAuthTag(Buffer.from(tag, 'base64'));
        return Buffer.concat([decipher.update(Buffer.from(ct, 'base64')), decipher.final()]).toString('utf8');
      } catch {
        throw new AppError(
          'SECRETS_UNAVAILABLE',
          'A stored password cannot be decrypted: it was sealed with another secret key or the file was altered. ' +
            'Restore the previous CACHEBOARD_SECRET_KEY or enter the password again.',
        );
      }
    },
  };
}
