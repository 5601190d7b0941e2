import { AppError } from '../../../app/errors';
import type { Handlers } from '../handlers';
import { keysDecodeHandlers } from './keysDecode';
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
  return {
    'keys.index.start': notYet('keys.index.start'),
    'keys.tree': notYet('keys.tree'),
    'keys.folderStats': notYet('keys.folderStats'),
    'keys.list': notYet('keys.list'),
    'keys.get': notYet('keys.get'),
    'keys.read': notYet('keys.read'),
    'keys.streamInfo': notYet('keys.streamInfo'),
    'keys.download': notYet('keys.download'),
    'keys.decode': keysDecodeHandlers(core)['keys.decode'],
    'keys.edit': notYet('keys.edit'),
  };
}
