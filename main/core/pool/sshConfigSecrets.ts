import { readSecret, type ReportProblem } from './configSecret';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The secret a key or password login takes, and the config-only names its env var and file go by. */
const SOURCES = {
  key: { secret: 'passphrase', env: 'passphraseEnv', file: 'passphraseFile' },
  password: { secret: 'password', env: 'passwordEnv', file: 'passwordFile' },
} as const;

/**
 * One hop's `auth` with `passphraseEnv`/`passphraseFile` (a key) or `passwordEnv`/`passwordFile`
 * (a password) read and put in place of the inline secret, so the file need hold none. Left as it
 * is when it names no such source (the profile schema then judges it).
 */
function authWithSecret(auth: unknown, env: NodeJS.ProcessEnv, at: ReportProblem): unknown {
  if (!isObj(auth)) return auth;
  const names = auth['kind'] === 'key' ? SOURCES.key : auth['kind'] === 'password' ? SOURCES.password : undefined;
  if (names === undefined || (auth[names.env] === undefined && auth[names.file] === undefined)) return auth;
  const { [names.env]: fromEnv, [names.file]: fromFile, ...rest } = auth;
  for (const [field, v] of [
    [names.env, fromEnv],
    [names.file, fromFile],
  ] as const) {
    if (v !== undefined && (typeof v !== 'string' || v === '')) {
      at([field], 'must be a non-empty string');
      return rest;
    }
  }
  const inline = rest[names.secret];
  // readSecret speaks of "password…"; say the hop's own field names instead.
  const report: ReportProblem = (path, message) =>
    at(
      path.map((p) => (p === 'passwordEnv' ? names.env : p === 'passwordFile' ? names.file : p)),
      message.replace('password (or in url), passwordEnv or passwordFile', `${names.secret}, ${names.env} or ${names.file}`),
    );
  const secret = readSecret(
    { password: typeof inline === 'string' ? inline : undefined, passwordEnv: fromEnv as string | undefined, passwordFile: fromFile as string | undefined },
    env,
    report,
  );
  return secret === undefined ? rest : { ...rest, [names.secret]: secret };
}

/**
 * A config entry's `ssh` with every hop's secret sources read (the last server's `auth` and each
 * jump's), as `passwordEnv`/`passwordFile` are for the Redis password. Problems are reported with
 * their path under `ssh`.
 */
export function sshWithSecrets(draft: Obj, env: NodeJS.ProcessEnv, at: ReportProblem): Obj {
  const ssh = draft['ssh'];
  if (!isObj(ssh)) return draft;
  const under =
    (path: PropertyKey[]): ReportProblem =>
    (p, m) =>
      at(['ssh', ...path, ...p], m);
  const out: Obj = { ...ssh };
  if (ssh['auth'] !== undefined) out['auth'] = authWithSecret(ssh['auth'], env, under(['auth']));
  if (Array.isArray(ssh['jumps'])) {
    out['jumps'] = ssh['jumps'].map((j: unknown, i) =>
      isObj(j) && j['auth'] !== undefined ? { ...j, auth: authWithSecret(j['auth'], env, under(['jumps', i, 'auth'])) } : j,
    );
  }
  return { ...draft, ssh: out };
}
