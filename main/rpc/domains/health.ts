import type { Handlers } from '../handlers';
import type { CoreServices } from './services';

export function healthHandlers(core: CoreServices): Pick<Handlers, 'health'> {
  return { health: () => ({ status: 'ok', version: core.version }) };
}
