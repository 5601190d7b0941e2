import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where Cacheboard keeps profiles, uploads and the save-config journal. */
export function dataDirFrom(env: NodeJS.ProcessEnv): string {
  if (env.CACHEBOARD_DATA_DIR) return env.CACHEBOARD_DATA_DIR;
  return join(env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'cacheboard');
}
