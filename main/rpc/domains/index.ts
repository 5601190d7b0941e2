import type { Handlers } from '../handlers';
import { connectionHandlers } from './connections';
import { healthHandlers } from './health';
import { serverHandlers } from './server';
import type { CoreServices } from './services';

/** Every contract entry bound to its core service; the type fails if one is missing. */
export function createHandlers(core: CoreServices): Handlers {
  return {
    ...healthHandlers(core),
    ...connectionHandlers(core),
    ...serverHandlers(core),
  };
}
