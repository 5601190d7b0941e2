import { AppError } from '../../app/errors';
import { KEYS_HELP } from './keysArgs';

export { KEYS_HELP };

/** `cacheboard keys tree|ls|get …`: each subcommand loads its own module. */
export async function keys(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'tree':
      return (await import('./keysTree')).keysTree(rest, env);
    case 'ls':
      return (await import('./keysLs')).keysLs(rest, env);
    case 'get':
      return (await import('./keysGet')).keysGet(rest, env);
    default:
      throw new AppError('VALIDATION', `${sub === undefined ? 'a subcommand is needed' : `unknown subcommand "${sub}"`}: tree, ls or get\n\n${KEYS_HELP}`);
  }
}
