import * as z from 'zod';
import { formatHostPort } from '../../../app/hostPort';
import { mapSecrets, secretOf, sshAuths } from '../../../app/schemas/sshProfile';
import type { StoredProfile } from '../pool/types';
import type { ProfileSecrets } from './candidate';
import { MAX_IMPORT_PROFILES } from './candidate';
import { SealedBlock, sealWithPassphrase } from './passphraseSeal';

export const EXPORT_FORMAT = 'cacheboard-profiles';

/**
 * Cacheboard's profiles file: each profile as the form's draft (ProfileDraft, no URL, no
 * secrets), and, only when the user asked, every secret in one block sealed with a passphrase.
 * `profiles` stays unknown here so that an import reports a bad entry by its index.
 */
export const ExportFile = z
  .object({
    format: z.literal(EXPORT_FORMAT),
    version: z.literal(1),
    exportedAt: z.string().max(64).optional(),
    profiles: z.array(z.record(z.string(), z.unknown())).max(MAX_IMPORT_PROFILES, `at most ${MAX_IMPORT_PROFILES} profiles in one file`),
    secrets: SealedBlock.optional(),
  })
  .strict();
export type ExportFile = z.output<typeof ExportFile>;

/** What the sealed block holds: one entry per profile, by index (null: that profile has none). */
export const SecretsPayload = z.array(
  z
    .object({
      password: z.string().optional(),
      sentinelPassword: z.string().optional(),
      analystPassword: z.string().optional(),
      ssh: z.array(z.string().nullable()).optional(),
    })
    .strict()
    .nullable(),
);

export interface ExportOptions {
  /** Given: the secrets are sealed with it into the file; absent: the file holds none. */
  passphrase?: string | undefined;
  now?: Date;
}

export interface BuiltExport {
  fileName: string;
  content: string;
  count: number;
  /** How many profiles had at least one secret sealed into the file. */
  withSecrets: number;
}

/** A profile as the form would type it, without one secret: every field ProfileDraft reads back. */
export function exportedDraft(p: StoredProfile): Record<string, unknown> {
  const s = p.spec;
  const t = s.topology;
  const topology =
    t === undefined
      ? undefined
      : t.kind === 'cluster'
        ? { kind: 'cluster', seeds: t.seeds.map(formatHostPort) }
        : {
            kind: 'sentinel',
            sentinels: t.sentinels.map(formatHostPort),
            masterName: t.masterName,
            ...(t.sentinelUsername === undefined ? {} : { sentinelUsername: t.sentinelUsername }),
          };
  const analyst = p.analystsRefused === true ? { access: 'none' } : p.analyst === undefined ? undefined : { access: 'user', username: p.analyst.username };
  return {
    name: s.name,
    host: s.host,
    port: s.port,
    db: s.db,
    ...(s.username === undefined ? {} : { username: s.username }),
    tls: { ...s.tls },
    ...(topology === undefined ? {} : { topology }),
    ...(analyst === undefined ? {} : { analyst }),
    ...(s.ssh === undefined ? {} : { ssh: mapSecrets(s.ssh, () => undefined) }),
    ...(s.tags === undefined || s.tags.length === 0 ? {} : { tags: [...s.tags] }),
  };
}

/** Every secret of a profile, or undefined when it holds none. */
export function secretsOf(p: StoredProfile): ProfileSecrets | undefined {
  const t = p.spec.topology;
  const ssh = p.spec.ssh === undefined ? undefined : sshAuths(p.spec.ssh).map((a) => secretOf(a) ?? null);
  const out: ProfileSecrets = {
    ...(p.spec.password === undefined ? {} : { password: p.spec.password }),
    ...(t?.kind === 'sentinel' && t.sentinelPassword !== undefined ? { sentinelPassword: t.sentinelPassword } : {}),
    ...(p.analyst?.password === undefined ? {} : { analystPassword: p.analyst.password }),
    ...(ssh === undefined || ssh.every((x) => x === null) ? {} : { ssh }),
  };
  return Object.keys(out).length === 0 ? undefined : out;
}

/** The export file's text; the caller hands over only profiles the session may export. */
export function buildExport(profiles: readonly StoredProfile[], opts: ExportOptions = {}): BuiltExport {
  const now = opts.now ?? new Date();
  const secrets = opts.passphrase === undefined ? [] : profiles.map((p) => secretsOf(p) ?? null);
  const withSecrets = secrets.filter((s) => s !== null).length;
  const file: ExportFile = {
    format: EXPORT_FORMAT,
    version: 1,
    exportedAt: now.toISOString(),
    profiles: profiles.map(exportedDraft),
    // The block is written whenever a passphrase was given, even with no secret in it, so
    // that the importer is asked for the passphrase the user chose and nothing is guessed.
    ...(opts.passphrase === undefined ? {} : { secrets: sealWithPassphrase(JSON.stringify(secrets), opts.passphrase) }),
  };
  const stamp = now.toISOString().slice(0, 10);
  return {
    fileName: `cacheboard-profiles-${stamp}${opts.passphrase === undefined ? '' : '-with-secrets'}.json`,
    content: JSON.stringify(file, null, 2) + '\n',
    count: profiles.length,
    withSecrets,
  };
}
