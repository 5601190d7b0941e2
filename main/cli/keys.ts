import { AppError } from '../../app/errors';
import { KEYS_HELP } from './keysArgs';

export { KEYS_HELP };

/** `cacheboard keys tree|ls|get|delete|expire|persist|export …`: each subcommand loads its own module. */
export async function keys(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [sub, ...rest] = argv;
  switch (sub) {
    case 'tree':
      return (await import('./keysTree')).keysTree(rest, env);
    case 'ls':
      return (await import('./keysLs')).keysLs(rest, env);
    case 'get':
      return (await import('./keysGet')).keysGet(rest, env);
    case 'delete':
    case 'expire':
    case 'persist':
      return (await import('./keyActions')).keyActions(sub, rest, env);
    case 'export':
      return (await import('./keysExport')).keysExport(rest, env);
    default:
      throw new AppError(
        'VALIDATION',
        `${sub === undefined ? 'a subcommand is needed' : `unknown subcommand "${sub}"`}: tree, ls, get, delete, expire, persist or export\n\n${KEYS_HELP}`,
      );
  }
}
