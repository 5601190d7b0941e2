import { AppError } from '../../../app/errors';
import type { Handlers } from '../handlers';
import { keysDecodeHandlers } from './keysDecode';
import { keysEditHandler } from './keysEdit';
import { keysValuesHandlers } from './keysValues';
import type { CoreServices } from './services';

type KeysHandlers = Pick<
  Handlers,
  'keys.index.start' | 'keys.tree' | 'keys.folderStats' | 'keys.list' | 'keys.get' | 'keys.read' | 'keys.streamInfo' | 'keys.download' | 'keys.decode' | 'keys.edit'
>;

const notYet = (name: string) => () => {
  throw new AppError('UNSUPPORTED', `${name} is not built yet`);
};

/** The Keys page's calls (its index progress and cancel are every job's, ./jobs.ts). */
export function keysHandlers(core: CoreServices): KeysHandlers {
  const values = keysValuesHandlers(core);
  return {
    'keys.index.start': notYet('keys.index.start'),
    'keys.tree': notYet('keys.tree'),
    'keys.folderStats': notYet('keys.folderStats'),
    'keys.list': notYet('keys.list'),
    'keys.get': values['keys.get'],
    'keys.read': values['keys.read'],
    'keys.streamInfo': values['keys.streamInfo'],
    'keys.download': values['keys.download'],
    'keys.decode': keysDecodeHandlers(core)['keys.decode'],
    'keys.edit': keysEditHandler(core),
  };
}
