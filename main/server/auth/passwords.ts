import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost: N=2^15, r=8 takes ~50 ms and 32 MiB here, which is what makes a stolen file slow to crack. */
const PARAMS = { N: 1 << 15, r: 8, p: 1 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;
const MAXMEM = 64 * 1024 * 1024;

function derive(password: string, salt: Buffer, p: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: p.N, r: p.r, p: p.p, maxmem: MAXMEM };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key))));
}

/** Why a password is refused before any hashing: empty, whitespace only, or not a string at all. */
export function unusablePassword(password: unknown): string | undefined {
  if (typeof password !== 'string') return 'password must be a string';
  if (password.trim() === '') return 'password must not be empty or whitespace only';
  if (password.length > 1024) return 'password must be at most 1,024 characters';
  return undefined;
}

/** `scrypt$N$r$p$salt$key` (base64url), self-describing so the cost can rise later. */
export async function hashPassword(password: string): Promise<string> {
  const why = unusablePassword(password);
  if (why !== undefined) throw new Error(why);
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Whether `password` matches `stored`, compared in constant time. An unusable
 * password or a malformed hash is simply false, after the same work, so the
 * timing says nothing about which it was.
 */
export async function verifyPassword(password: unknown, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  const [kind, n, r, p, salt, key] = parts;
  const wellFormed = parts.length === 6 && kind === 'scrypt' && salt !== undefined && key !== undefined;
  const params = wellFormed ? { N: Number(n), r: Number(r), p: Number(p) } : PARAMS;
  const want = wellFormed ? Buffer.from(key, 'base64url') : Buffer.alloc(KEY_BYTES);
  const usable = unusablePassword(password) === undefined;
  let got: Buffer;
  try {
    got = await derive(usable ? (password as string) : 'x', wellFormed ? Buffer.from(salt, 'base64url') : Buffer.alloc(SALT_BYTES), params);
  } catch {
    return false; // parameters scrypt refuses: a damaged file
  }
  return usable && wellFormed && got.length === want.length && timingSafeEqual(got, want);
}
