import { IndexRegistry } from '../../core/keys/index/indexRegistry';
import type { Handlers } from '../handlers';
import { audienceHandlers } from './audience';
import { auditHandlers } from './audit';
import { bulkHandlers } from './bulk';
import { clientsHandlers } from './clients';
import { configHandlers } from './config';
import { connectionHandlers } from './connections';
import { consoleHandlers } from './console';
import { exportHandlers } from './export';
import { healthHandlers } from './health';
import { jobHandlers } from './jobs';
import { keyActionHandlers } from './keyActions';
import { keysHandlers } from './keys';
import { metricsHandlers } from './metrics';
import { monitorHandlers } from './monitor';
import { profileTransferHandlers } from './profileTransfer';
import { pubsubHandlers } from './pubsub';
import { samplingHandlers } from './sampling';
import { serverHandlers } from './server';
import { trialHandlers } from './trials';
import type { CoreServices } from './services';

/** Every contract entry bound to its core service; the type fails if one is missing. */
export function createHandlers(core: CoreServices): Handlers {
  // One set of key indexes: the Keys page builds and reads them, a bulk delete updates them.
  const indexes = new IndexRegistry(core.jobs.keysIndex);
  return {
    ...healthHandlers(core),
    ...connectionHandlers(core),
    ...profileTransferHandlers(core),
    ...serverHandlers(core),
    ...bulkHandlers(core),
    ...metricsHandlers(core),
    ...samplingHandlers(core),
    ...trialHandlers(core),
    ...monitorHandlers(core),
    ...auditHandlers(core),
    ...audienceHandlers(core),
    ...keysHandlers(core, indexes),
    ...keyActionHandlers(core, undefined, {}, indexes),
    ...exportHandlers(core),
    ...consoleHandlers(core),
    ...configHandlers(core),
    ...clientsHandlers(core),
    ...pubsubHandlers(core),
    ...jobHandlers(core.jobs),
  };
}
