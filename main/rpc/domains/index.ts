import type { Handlers } from '../handlers';
import { bulkHandlers } from './bulk';
import { connectionHandlers } from './connections';
import { healthHandlers } from './health';
import { metricsHandlers } from './metrics';
import { serverHandlers } from './server';
import type { CoreServices } from './services';

/** Every contract entry bound to its core service; the type fails if one is missing. */
export function createHandlers(core: CoreServices): Handlers {
  return {
    ...healthHandlers(core),
    ...connectionHandlers(core),
    ...serverHandlers(core),
    ...bulkHandlers(core),
    ...metricsHandlers(core),
  };
}
