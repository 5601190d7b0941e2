import * as z from 'zod';
import { call } from '../define';
import { ProfileId } from './common';
import { ProfileView } from './connections';

/** An import file travels in the call (the wire carries 1 MiB): far more than 500 profiles need. */
export const MAX_IMPORT_FILE = 768 * 1024;
export const MIN_EXPORT_PASSPHRASE = 8;

const Passphrase = z.string().max(1024, 'the passphrase is too long');

export const ImportFormat = z.enum(['cacheboard', 'redisinsight', 'ardm']);
export type ImportFormat = z.output<typeof ImportFormat>;

const ImportFile = {
  /** The file's text as read in the page (JSON, or base64 for ARDM's export). */
  content: z
    .string()
    .min(1, 'choose a file')
    .max(MAX_IMPORT_FILE, `the file is larger than ${MAX_IMPORT_FILE / 1024} KiB`),
  /** Cacheboard files exported with secrets: the passphrase they were sealed with. */
  passphrase: Passphrase.optional(),
};

/** One profile of the file as it would be imported: never a secret, only which ones it brings. */
export const ImportEntry = z.object({
  index: z.number(),
  name: z.string(),
  /** standalone, cluster or sentinel, and where it starts (host:port of the server, first seed or sentinel). */
  kind: z.enum(['standalone', 'cluster', 'sentinel']),
  address: z.string(),
  tls: z.boolean(),
  ssh: z.boolean(),
  tags: z.array(z.string()),
  /** "field" or "their field → ours", as read from the file. */
  mapped: z.array(z.string()),
  /** What the file holds that Cacheboard leaves out, and why. */
  ignored: z.array(z.object({ field: z.string(), why: z.string() })),
  /** Names of the secrets it brings ("password", "SSH secret"), never their values. */
  secrets: z.array(z.string()),
  /** A profile of the same name exists (or comes earlier in the file). */
  collision: z.boolean(),
  /** The name it gets with onCollision "rename". */
  renamedTo: z.string().optional(),
});
export type ImportEntry = z.output<typeof ImportEntry>;

export const ImportPreview = z.object({
  format: ImportFormat,
  secretsIncluded: z.boolean(),
  entries: z.array(ImportEntry),
  /** Secrets can be stored here; when not, an import that brings any is refused. */
  passwordStorage: z.object({ available: z.boolean(), reason: z.string().optional() }),
});
export type ImportPreview = z.output<typeof ImportPreview>;

export const OnCollision = z.enum(['rename', 'skip']);

/** Export and import of connection profiles; the Connections page's toolbar. */
export const profileTransfer = {
  'connections.export': call({
    summary:
      'A versioned JSON file of the chosen profiles (all when no ids): every field but secrets, which are left out unless includeSecrets, then sealed with the passphrase (AES-256-GCM, scrypt)',
    // Ops only: the file names every server, user and SSH route, and with secrets, their passwords under a passphrase the caller chose.
    role: 'ops',
    input: z
      .object({
        ids: z.array(ProfileId).max(500).optional(),
        includeSecrets: z.boolean().default(false),
        passphrase: Passphrase.optional(),
      })
      .strict()
      .superRefine((v, ctx) => {
        if (v.includeSecrets && (v.passphrase === undefined || v.passphrase.length < MIN_EXPORT_PASSPHRASE)) {
          ctx.addIssue({
            code: 'custom',
            path: ['passphrase'],
            message: `a passphrase of at least ${MIN_EXPORT_PASSPHRASE} characters is needed to include secrets`,
          });
        }
      }),
    output: z.object({ fileName: z.string(), content: z.string(), count: z.number(), withSecrets: z.number() }),
  }),
  'connections.import.preview': call({
    summary: 'Read an import file (Cacheboard, RedisInsight or ARDM export) and say what it would add, without writing anything',
    role: 'ops',
    input: z.object(ImportFile).strict(),
    output: ImportPreview,
  }),
  'connections.import.commit': call({
    summary: 'Import every profile of the file in one write (all or nothing); same names are renamed or skipped; dropSecrets leaves every secret out',
    role: 'ops',
    input: z
      .object({
        ...ImportFile,
        onCollision: OnCollision.default('rename'),
        /** Import the profiles without any password or passphrase the file holds (when none can be stored here). */
        dropSecrets: z.boolean().default(false),
      })
      .strict(),
    output: z.object({ imported: z.array(ProfileView), skipped: z.array(z.string()) }),
  }),
} as const;
