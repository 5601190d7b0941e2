import { AppError } from '../../../app/errors';
import type { Handlers } from '../handlers';
import type { CoreServices } from './services';

type ConsoleHandlers = Pick<
  Handlers,
  'console.catalog' | 'console.targets' | 'console.run' | 'console.cancel' | 'console.history' | 'console.download'
>;

const notYet = (): never => {
  throw new AppError('UNSUPPORTED', 'The console is being built');
};

export function consoleHandlers(core: CoreServices): ConsoleHandlers {
  void core;
  return {
    'console.catalog': notYet,
    'console.targets': notYet,
    'console.run': notYet,
    'console.cancel': notYet,
    'console.history': notYet,
    'console.download': notYet,
  };
}
