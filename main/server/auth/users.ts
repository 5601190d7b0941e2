import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as z from 'zod';
import type { Role } from '../../../app/define';
import { ROLES } from '../../../app/define';
import { AppError } from '../../../app/errors';
import { atomicWriteFileSync } from '../../core/pool/atomicWrite';
import { hashPassword, unusablePassword } from './passwords';

export const USER_NAME = /^[A-Za-z0-9._@-]{1,64}$/;

const UserRecord = z.object({
  name: z.string().regex(USER_NAME),
  role: z.enum(ROLES),
  passwordHash: z.string().startsWith('scrypt$'),
  createdAt: z.string(),
});
export type UserRecord = z.output<typeof UserRecord>;

/**
 * What a session is issued under: the user's role and password hash. The hash's salt is new at
 * every `user add`, so a role change or any password change (even to the same password) gives a
 * new stamp, and a removed user has none: the sessions issued under the old one are revoked.
 * Hashed so that sessions never hold the password hash itself.
 */
export function userStamp(u: UserRecord): string {
  return createHash('sha256').update(`${u.role}\n${u.passwordHash}`).digest('base64url');
}

const UsersFile = z.object({ version: z.literal(1), users: z.array(UserRecord) });

/**
 * The web build's users: a JSON file next to the profiles (mode 0600, atomic
 * writes), holding scrypt hashes only. There is no default user and no default
 * password: a server with auth on and no users refuses to start.
 */
export function readUsers(file: string): UserRecord[] {
  if (!existsSync(file)) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new AppError('VALIDATION', `${file} is not valid JSON (${(e as Error).message}); fix or remove it`, 'users');
  }
  const parsed = UsersFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('VALIDATION', `${file}: ${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is malformed'}`, 'users');
  }
  return parsed.data.users;
}

function writeUsers(file: string, users: UserRecord[]): void {
  atomicWriteFileSync(file, `${JSON.stringify({ version: 1, users }, null, 2)}\n`);
}

/** Add a user, or set a new password and role for an existing one. Returns whether it was new. */
export async function addUser(file: string, name: string, role: Role, password: string): Promise<boolean> {
  if (!USER_NAME.test(name)) {
    throw new AppError('VALIDATION', 'NAME may hold only letters, digits and . _ @ - (at most 64)', 'name');
  }
  const why = unusablePassword(password);
  if (why !== undefined) throw new AppError('VALIDATION', why, 'password');
  const passwordHash = await hashPassword(password);
  const users = readUsers(file);
  const existing = users.findIndex((u) => u.name === name);
  const record: UserRecord = { name, role, passwordHash, createdAt: new Date().toISOString() };
  if (existing >= 0) users[existing] = record;
  else users.push(record);
  writeUsers(file, users);
  return existing < 0;
}

export function removeUser(file: string, name: string): void {
  const users = readUsers(file);
  const left = users.filter((u) => u.name !== name);
  if (left.length === users.length) throw new AppError('NOT_FOUND', `No user named "${name}"`, 'name');
  writeUsers(file, left);
}
