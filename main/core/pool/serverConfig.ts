import { readFileSync } from 'node:fs';
import * as z from 'zod';
import { AppError } from '../../../app/errors';
import { ProfileId } from '../../../app/schemas/common';
import { ProfileDraft } from '../../../app/schemas/connections';
import { validateSpecFiles } from './connectionOptions';
import { readSecret, type ReportProblem } from './configSecret';
import { sshWithSecrets } from './sshConfigSecrets';
import type { Credentials, StoredProfile } from './types';
import { formatIssuePath } from './zodIssues';

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');
const PasswordFile = z.string().min(1, 'must not be empty');

/** The Redis ACL user analysts' sessions connect as (see docs/security.md, "Redis ACL for analysts"). */
const AnalystEntry = z
  .object({
    username: z.string().min(1, 'username is required').max(256),
    password: z.string().min(1, 'password must not be empty').max(4096).optional(),
    passwordEnv: EnvName.optional(),
    passwordFile: PasswordFile.optional(),
  })
  .strict();

/** The config-only fields; the rest of each entry must be a valid ProfileDraft. */
const ConfigEntry = z.looseObject({
  id: ProfileId,
  passwordEnv: EnvName.optional(),
  passwordFile: PasswordFile.optional(),
  analyst: AnalystEntry.optional(),
  /** Its server must not be written from here, by any role (readOnlyProfile.ts); absent: ops may write. */
  readOnly: z.boolean().optional(),
});

/**
 * A sentinel topology's password may come from the environment or a secret
 * file too: `topology.sentinelPasswordEnv` / `sentinelPasswordFile`, taken out
 * before the rest is checked as a ProfileDraft.
 */
function sentinelSecret(
  draft: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  at: ReportProblem,
): { draft: Record<string, unknown>; password: string | undefined } {
  const t = draft['topology'];
  if (typeof t !== 'object' || t === null || Array.isArray(t)) return { draft, password: undefined };
  const { sentinelPasswordEnv, sentinelPasswordFile, ...topology } = t as Record<string, unknown>;
  if (sentinelPasswordEnv === undefined && sentinelPasswordFile === undefined) return { draft, password: undefined };
  const sources = z.object({ passwordEnv: EnvName.optional(), passwordFile: PasswordFile.optional() }).safeParse({
    passwordEnv: sentinelPasswordEnv,
    passwordFile: sentinelPasswordFile,
  });
  const report: ReportProblem = (path, message) =>
    at(['topology', ...path.map((p) => (p === 'passwordEnv' ? 'sentinelPasswordEnv' : p === 'passwordFile' ? 'sentinelPasswordFile' : p))], message);
  if (!sources.success) {
    for (const issue of sources.error.issues) report(issue.path, issue.message);
    return { draft: { ...draft, topology }, password: undefined };
  }
  const inline = typeof topology['sentinelPassword'] === 'string' ? topology['sentinelPassword'] : undefined;
  const password = readSecret({ password: inline, ...sources.data }, env, report);
  return { draft: { ...draft, topology }, password };
}

function analystCredentials(entry: z.output<typeof AnalystEntry>, env: NodeJS.ProcessEnv, at: ReportProblem): Credentials {
  const password = readSecret(entry, env, at);
  return { username: entry.username, ...(password === undefined ? {} : { password }) };
}

const ConfigFile = z.object({ profiles: z.array(z.unknown()) }).strict();

interface Problem {
  path: PropertyKey[];
  message: string;
}

function fail(file: string, problems: Problem[]): never {
  const lines = problems.map((p) => `${file}: ${formatIssuePath(p.path)}: ${p.message}`);
  throw new AppError('VALIDATION', lines.join('\n'));
}

/**
 * The web build's profiles from a JSON file (CACHEBOARD_CONFIG):
 * `{ "profiles": [ { "id", "name", "url" | host/port/db/username/tls, "passwordEnv" | "passwordFile",
 *   "topology"?: { "kind": "cluster", "seeds" } | { "kind": "sentinel", "sentinels", "masterName",
 *     "sentinelUsername", "sentinelPassword" | "sentinelPasswordEnv" | "sentinelPasswordFile" },
 *   "analyst"?: { "username", "password" | "passwordEnv" | "passwordFile" },
 *   "readOnly"?: true (no role may write to its server here: keys, loads, console writes, config, clients),
 *   "ssh"?: { …, "auth": { "kind": "key", "keyFile", "passphrase" | "passphraseEnv" | "passphraseFile" }
 *     | { "kind": "password", "password" | "passwordEnv" | "passwordFile" }, "jumps": [ { …, "auth" } ] } } ] }`.
 * Every error names the file and the field path, e.g.
 * "cacheboard.json: profiles[0].port: port must be between 1 and 65535".
 * Passwords come from the environment or a secret file, so none need be in the file.
 */
export function loadServerConfig(file: string, env: NodeJS.ProcessEnv = process.env): StoredProfile[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const why = (err as { code?: unknown }).code === 'ENOENT' ? 'file not found' : (err as Error).message;
    throw new AppError('VALIDATION', `${file}: ${why}`);
  }
  const top = ConfigFile.safeParse(json);
  if (!top.success) fail(file, top.error.issues);

  const problems: Problem[] = [];
  const out: StoredProfile[] = [];
  const seen = new Set<string>();
  top.data.profiles.forEach((raw, i) => {
    const at = (path: PropertyKey[], message: string): void => void problems.push({ path: ['profiles', i, ...path], message });
    const entry = ConfigEntry.safeParse(raw);
    if (!entry.success) {
      for (const issue of entry.error.issues) at(issue.path, issue.message);
      return;
    }
    const { id, passwordEnv, passwordFile, analyst, readOnly, ...fields } = entry.data;
    const { draft, password: sentinelPassword } = sentinelSecret(fields, env, at);
    const parsed = ProfileDraft.safeParse(sshWithSecrets(draft, env, at));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) at(issue.path, issue.message);
      return;
    }
    const spec = parsed.data;
    if (seen.has(id)) at(['id'], `duplicate id "${id}"`);
    seen.add(id);

    const password = readSecret({ password: spec.password, passwordEnv, passwordFile }, env, at);
    if (password !== undefined) spec.password = password;
    if (sentinelPassword !== undefined && spec.topology?.kind === 'sentinel') spec.topology.sentinelPassword = sentinelPassword;
    const roleCredentials = analyst === undefined ? undefined : analystCredentials(analyst, env, (path, m) => at(['analyst', ...path], m));
    try {
      validateSpecFiles(spec);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      at(['tls', 'caFile'], err.message.replace(/^tls\.caFile: /, ''));
    }
    out.push({
      id,
      source: 'config',
      spec,
      ...(roleCredentials === undefined ? {} : { analyst: roleCredentials }),
      ...(readOnly === true ? { readOnlyData: true } : {}),
    });
  });
  if (problems.length > 0) fail(file, problems);
  return out;
}
