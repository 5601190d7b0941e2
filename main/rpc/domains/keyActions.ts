import { AppError } from '../../../app/errors';
import type { Handlers } from '../handlers';
import type { CoreServices } from './services';

type KeyActionHandlers = Pick<Handlers, 'keys.actions.start' | 'keys.actions.resumable'>;

/** Bulk key actions (their progress and cancel are every job's, ./jobs.ts). Not built yet. */
export function keyActionHandlers(_core: Pick<CoreServices, 'profiles' | 'pool' | 'jobs' | 'audit'>): KeyActionHandlers {
  const notYet = (): never => {
    throw new AppError('INTERNAL', 'bulk key actions are not built yet');
  };
  return { 'keys.actions.start': async () => notYet(), 'keys.actions.resumable': async () => notYet() };
}
