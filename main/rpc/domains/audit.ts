import type { Handlers } from '../handlers';
import type { CoreServices } from './services';

export function auditHandlers({ audit }: CoreServices): Pick<Handlers, 'audit.list'> {
  return {
    'audit.list': ({ limit }) => ({ entries: audit.tail(limit) }),
  };
}
