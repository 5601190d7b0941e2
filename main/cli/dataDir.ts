import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where Cacheboard keeps profiles, uploads and the save-config journal. */
export function dataDirFrom(env: NodeJS.ProcessEnv): string {
  if (env.CACHEBOARD_DATA_DIR) return env.CACHEBOARD_DATA_DIR;
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'cacheboard');
}

/** The web build's users file: CACHEBOARD_USERS, else users.json in the data dir. */
export function usersFileFrom(env: NodeJS.ProcessEnv): string {
  return env.CACHEBOARD_USERS || join(dataDirFrom(env), 'users.json');
}
