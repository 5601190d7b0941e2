import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';
import * as z from 'zod';
import { AppError } from '../../../app/errors';
import { MIN_EXPORT_PASSPHRASE } from '../../../app/schemas/profileTransfer';

/** scrypt's cost: ~100 ms here, so guessing a passphrase offline stays slow; written into the file so it can rise later. */
const COST = { N: 2 ** 15, r: 8, p: 1 } as const;
const MAXMEM = 64 * 1024 * 1024;
/** Bound to the format: a sealed block cannot be moved into another kind of file and opened there. */
const AAD = Buffer.from('cacheboard-profiles:secrets:v1');

const B64 = z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'not base64');

/** The sealed secrets of an export: AES-256-GCM under a key scrypt stretches from the passphrase and a random salt. */
export const SealedBlock = z
  .object({
    cipher: z.literal('aes-256-gcm'),
    kdf: z.literal('scrypt'),
    N: z
      .number()
      .int()
      .min(2 ** 14)
      .max(2 ** 20),
    r: z.number().int().min(1).max(32),
    p: z.number().int().min(1).max(16),
    salt: B64,
    iv: B64,
    tag: B64,
    data: B64,
  })
  .strict();
export type SealedBlock = z.output<typeof SealedBlock>;

function keyOf(passphrase: string, salt: Buffer, cost: { N: number; r: number; p: number }): Buffer {
  return scryptSync(passphrase.normalize('NFC'), salt, 32, { ...cost, maxmem: MAXMEM });
}

/** Seal `plain` with a passphrase: a fresh salt and IV each time, so two exports never share a key. */
export function sealWithPassphrase(plain: string, passphrase: string): SealedBlock {
  if (passphrase.length < MIN_EXPORT_PASSPHRASE) {
    throw new AppError('VALIDATION', `The passphrase must be at least ${MIN_EXPORT_PASSPHRASE} characters.`, 'passphrase');
  }
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(passphrase, salt, COST), iv);
  cipher.setAAD(AAD);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return {
    cipher: 'aes-256-gcm',
    kdf: 'scrypt',
    ...COST,
    salt: salt.toString('base64'),
    iv: iv.toString('base64'),
    tag: cipher.getAuthTag().toString('base64'),
    data: data.toString('base64'),
  };
}

/** Open a block; a wrong passphrase or an altered file fails GCM's tag check, and says so on `passphrase`. */
export function openWithPassphrase(block: SealedBlock, passphrase: string): string {
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(passphrase, Buffer.from(block.salt, 'base64'), block), Buffer.from(block.iv, 'base64'));
    decipher.setAAD(AAD);
    decipher.setAuthTag(Buffer.from(block.tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(block.data, 'base64')), decipher.final()]).toString('utf8');
  } catch {
    throw new AppError(
      'VALIDATION',
      'Wrong passphrase: the secrets in this file cannot be opened with it (or the file was altered). Nothing was imported.',
      'passphrase',
    );
  }
}
