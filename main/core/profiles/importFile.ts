import { AppError } from '../../../app/errors';
import { ProfileDraft, type ProfileSpec } from '../../../app/schemas/connections';
import { validateSpecFiles } from '../pool/connectionOptions';
import { formatIssuePath } from '../pool/zodIssues';
import { ardmEntry } from './ardmFormat';
import { parseCacheboardFile } from './cacheboardFormat';
import { MAX_IMPORT_PROFILES, type Candidate, type Ignored, type ImportFormat, type ParsedFile } from './candidate';
import { EXPORT_FORMAT } from './exportFile';
import { isEntry } from './peerFields';
import { redisInsightEntry } from './redisInsightFormat';
import { withSecrets } from './importSecrets';

/** Fields only ARDM writes: an array holding them is ARDM's even when it arrives as plain JSON. */
const ARDM_ONLY = ['auth', 'sslOptions', 'sentinelOptions', 'separator', 'connectionReadOnly'];
/** Fields only RedisInsight writes: its importer reads base64 too, so base64 alone does not make a file ARDM's. */
const REDISINSIGHT_ONLY = ['password', 'connectionType', 'sentinelMaster', 'caCert', 'clientCert', 'verifyServerCert', 'modules', 'provider'];

/** One profile an import would add: the spec to store and what the preview tells of it. */
export interface PlannedProfile {
  index: number;
  spec: ProfileSpec;
  mapped: string[];
  ignored: Ignored[];
  /** Which secrets it brings (field names, never values). */
  secrets: string[];
}

export interface ImportPlan {
  format: ImportFormat;
  secretsIncluded: boolean;
  profiles: PlannedProfile[];
}

function bad(message: string): AppError {
  return new AppError('VALIDATION', message, 'file');
}

/** The file's JSON: as is, or the base64 of it (ARDM's export; RedisInsight reads both). */
function decode(content: string): { json: unknown; base64: boolean } {
  const trimmed = content.trim();
  if (trimmed === '') throw bad('The file is empty.');
  try {
    return { json: JSON.parse(trimmed), base64: false };
  } catch (err) {
    if (/^[A-Za-z0-9+/=\s]+$/.test(trimmed)) {
      try {
        return { json: JSON.parse(Buffer.from(trimmed, 'base64').toString('utf8')), base64: true };
      } catch {
        // Fall through to the JSON error, which says more about a file meant to be JSON.
      }
    }
    throw bad(`The file is neither JSON nor the base64 of JSON (${(err as Error).message}).`);
  }
}

/** Which program wrote the file, and its entries mapped to Cacheboard's draft. */
export function readImportFile(content: string, passphrase?: string): ParsedFile {
  const { json, base64 } = decode(content);
  if (isEntry(json)) {
    if (json.format === EXPORT_FORMAT) return parseCacheboardFile(json, passphrase);
    throw bad('Not a connections file Cacheboard knows: expected a Cacheboard profiles export, a RedisInsight database export or an ARDM connections export.');
  }
  if (!Array.isArray(json)) throw bad('Not a connections file: expected a JSON object or array.');
  if (json.length === 0) throw bad('The file holds no connections.');
  if (json.length > MAX_IMPORT_PROFILES) throw bad(`The file holds ${json.length} connections; at most ${MAX_IMPORT_PROFILES} are imported at once.`);
  json.forEach((e, i) => {
    if (!isEntry(e)) throw new AppError('VALIDATION', `Entry ${i + 1} of ${json.length} is not an object with connection fields.`, `entries[${i}]`);
  });
  const entries = json as Array<Record<string, unknown>>;
  const has = (keys: readonly string[]) => entries.some((e) => keys.some((k) => k in e));
  const ardm = has(ARDM_ONLY) || (base64 && !has(REDISINSIGHT_ONLY));
  const candidates = entries.map(ardm ? ardmEntry : redisInsightEntry);
  return { format: ardm ? 'ardm' : 'redisinsight', secretsIncluded: candidates.some((c) => secretsOf(c).length > 0), candidates };
}

/** The names of the secrets a candidate brings, in clear (peers) or opened (Cacheboard). */
function secretsOf(c: Candidate): string[] {
  const d = c.draft;
  const t = isEntry(d.topology) ? d.topology : {};
  const s = c.secrets ?? {};
  const ssh = isEntry(d.ssh) && isEntry(d.ssh.auth) ? d.ssh.auth : {};
  return [
    ...(d.password !== undefined || s.password !== undefined ? ['password'] : []),
    ...(t.sentinelPassword !== undefined || s.sentinelPassword !== undefined ? ['sentinel password'] : []),
    ...(s.analystPassword !== undefined ? ["analysts' password"] : []),
    ...(ssh.password !== undefined || ssh.passphrase !== undefined || (s.ssh ?? []).some((x) => x !== null) ? ['SSH secret'] : []),
  ];
}

/**
 * Check every entry as the form would (ProfileDraft, then its files on this server) and stop at
 * the first bad one, naming its place in the file and the field: an import is all or nothing.
 */
export function planImport(parsed: ParsedFile): ImportPlan {
  const total = parsed.candidates.length;
  const profiles = parsed.candidates.map((c, index): PlannedProfile => {
    const label = typeof c.draft.name === 'string' ? ` (“${c.draft.name}”)` : '';
    const r = ProfileDraft.safeParse(c.draft);
    if (!r.success) {
      const issue = r.error.issues[0];
      const path = issue === undefined ? '' : formatIssuePath(issue.path);
      throw new AppError('VALIDATION', `Entry ${index + 1} of ${total}${label}, field ${path}: ${issue?.message ?? 'invalid'}.`, `entries[${index}].${path}`);
    }
    const spec = withSecrets(r.data, c.secrets);
    try {
      validateSpecFiles(spec);
    } catch (err) {
      const e = err instanceof AppError ? err : new AppError('VALIDATION', String(err));
      throw new AppError('VALIDATION', `Entry ${index + 1} of ${total}${label}, ${e.message}`, `entries[${index}].${e.field ?? ''}`);
    }
    return { index, spec, mapped: c.mapped, ignored: c.ignored, secrets: secretsOf(c) };
  });
  return { format: parsed.format, secretsIncluded: parsed.secretsIncluded, profiles };
}
