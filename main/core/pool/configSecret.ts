import { readFileSync } from 'node:fs';

/** The ways a config entry may give a password: inline (or in the url), an env var, a secret file. */
export interface SecretSources {
  password?: string | undefined;
  passwordEnv?: string | undefined;
  passwordFile?: string | undefined;
}

export type ReportProblem = (path: PropertyKey[], message: string) => void;

/**
 * The one password `src` names, or undefined when it names none or cannot be
 * read (then `at` has been told why, with the field's path).
 */
export function readSecret(src: SecretSources, env: NodeJS.ProcessEnv, at: ReportProblem): string | undefined {
  const given = [src.password, src.passwordEnv, src.passwordFile].filter((v) => v !== undefined);
  if (given.length > 1) {
    at([], 'give the password one way only: password (or in url), passwordEnv or passwordFile');
    return undefined;
  }
  if (src.passwordEnv !== undefined) {
    const value = env[src.passwordEnv];
    if (value === undefined || value === '') at(['passwordEnv'], `environment variable ${src.passwordEnv} is not set`);
    else return value;
    return undefined;
  }
  if (src.passwordFile !== undefined) {
    try {
      // Secret files (Docker/Kubernetes) usually end with a newline that is not part of the password.
      const value = readFileSync(src.passwordFile, 'utf8').replace(/\r?\n$/, '');
      if (value !== '') return value;
      at(['passwordFile'], `${src.passwordFile} is empty`);
    } catch (err) {
      at(['passwordFile'], `cannot read ${src.passwordFile}: ${(err as { code?: string }).code ?? (err as Error).message}`);
    }
    return undefined;
  }
  return src.password;
}
