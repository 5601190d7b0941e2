import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { AppError } from '../../../app/errors';
import { ProfileId } from '../../../app/schemas/common';
import { ProfileDraft } from '../../../app/schemas/connections';
import { validateSpecFiles } from './connectionOptions';
import type { StoredProfile } from './types';
import { formatIssuePath } from './zodIssues';

const EnvName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name');

/** The config-only fields; the rest of each entry must be a valid ProfileDraft. */
const ConfigEntry = z.looseObject({
  id: ProfileId,
  passwordEnv: EnvName.optional(),
  passwordFile: z.string().min(1, 'must not be empty').optional(),
});

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
 * `{ "profiles": [ { "id", "name", "url" | host/port/db/username/tls, "passwordEnv" | "passwordFile" } ] }`.
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
    const { id, passwordEnv, passwordFile, ...draft } = entry.data;
    const parsed = ProfileDraft.safeParse(draft);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) at(issue.path, issue.message);
      return;
    }
    const spec = parsed.data;
    if (seen.has(id)) at(['id'], `duplicate id "${id}"`);
    seen.add(id);

    const sources = [spec.password !== undefined, passwordEnv !== undefined, passwordFile !== undefined];
    if (sources.filter(Boolean).length > 1) {
      at([], 'give the password one way only: password (or in url), passwordEnv or passwordFile');
      return;
    }
    if (passwordEnv !== undefined) {
      const value = env[passwordEnv];
      if (value === undefined || value === '') at(['passwordEnv'], `environment variable ${passwordEnv} is not set`);
      else spec.password = value;
    }
    if (passwordFile !== undefined) {
      try {
        // Secret files (Docker/Kubernetes) usually end with a newline that is not part of the password.
        const value = readFileSync(passwordFile, 'utf8').replace(/\r?\n$/, '');
        if (value === '') at(['passwordFile'], `${passwordFile} is empty`);
        else spec.password = value;
      } catch (err) {
        at(['passwordFile'], `cannot read ${passwordFile}: ${(err as { code?: string }).code ?? (err as Error).message}`);
      }
    }
    try {
      validateSpecFiles(spec);
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      at(['tls', 'caFile'], err.message.replace(/^tls\.caFile: /, ''));
    }
    out.push({ id, source: 'config', spec });
  });
  if (problems.length > 0) fail(file, problems);
  return out;
}
