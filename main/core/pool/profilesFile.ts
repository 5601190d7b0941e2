import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { AppError } from '../../../app/errors';
import { SshDraft, TlsOptions } from '../../../app/schemas/connections';
import { ProfileId } from '../../../app/schemas/common';
import { atomicWriteFileSync } from './atomicWrite';
import { formatIssuePath } from './zodIssues';

const Address = z.object({ host: z.string().min(1), port: z.number().int().min(1).max(65535) }).strict();

/** A profile's topology as written to profiles.json: the sentinel password only ever sealed. */
export const TopologyRecord = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('cluster'), seeds: z.array(Address).min(1) }).strict(),
  z
    .object({
      kind: z.literal('sentinel'),
      sentinels: z.array(Address).min(1),
      masterName: z.string().min(1),
      sentinelUsername: z.string().optional(),
      sentinelPasswordSealed: z.string().optional(),
    })
    .strict(),
]);
export type TopologyRecord = z.output<typeof TopologyRecord>;

/** How analysts reach a profile added in the UI; absent: with the profile's own user. */
export const AnalystRecord = z.discriminatedUnion('access', [
  z.object({ access: z.literal('none') }).strict(),
  z.object({ access: z.literal('user'), username: z.string().min(1), passwordSealed: z.string().optional() }).strict(),
]);
export type AnalystRecord = z.output<typeof AnalystRecord>;

/**
 * A profile's SSH route as written to profiles.json: the route without its secrets, and each
 * hop's passphrase or password sealed apart (jumps first, the last server last; null: none).
 */
export const SshRecord = z.object({ route: SshDraft, sealed: z.array(z.string().nullable()).optional() }).strict();
export type SshRecord = z.output<typeof SshRecord>;

/** A user profile as written to profiles.json: the password only ever sealed. */
export const ProfileRecord = z
  .object({
    id: ProfileId,
    name: z.string().min(1),
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535),
    db: z.number().int().min(0),
    username: z.string().optional(),
    passwordSealed: z.string().optional(),
    tls: TlsOptions,
    /** Absent: standalone (every file written before topologies existed). */
    topology: TopologyRecord.optional(),
    analyst: AnalystRecord.optional(),
    ssh: SshRecord.optional(),
    /** Absent: no tags (every file written before tags existed). */
    tags: z.array(z.string()).optional(),
  })
  .strict();
export type ProfileRecord = z.output<typeof ProfileRecord>;

const ProfilesFile = z.object({ version: z.literal(1), profiles: z.array(ProfileRecord) }).strict();

/**
 * Read profiles.json. Absent: no profiles yet. Unreadable or invalid: an error
 * naming the file, and the caller must not write over it, since it may hold
 * the only copy of someone's profiles.
 */
export function readProfilesFile(file: string): ProfileRecord[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as { code?: unknown }).code === 'ENOENT') return [];
    throw new AppError('INTERNAL', `Cannot read ${file}: ${(err as Error).message}`);
  }
  const keep = 'Fix it or move it aside; Cacheboard will not overwrite it.';
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new AppError('INTERNAL', `${file} is not valid JSON (${(err as Error).message}). ${keep}`);
  }
  const parsed = ProfilesFile.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? '' : `${formatIssuePath(issue.path)}: ${issue.message}`;
    throw new AppError('INTERNAL', `${file} is not a Cacheboard profiles file (${where}). ${keep}`);
  }
  return parsed.data.profiles;
}

export function writeProfilesFile(file: string, profiles: ProfileRecord[]): void {
  atomicWriteFileSync(file, JSON.stringify({ version: 1, profiles }, null, 2) + '\n', 0o600);
}
