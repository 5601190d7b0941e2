import type { AppError } from '../../../app/errors';
import type { Restriction } from '../../../app/schemas/restrictions';

/**
 * A MONITOR the server refused (a managed service's rename, an ACL user without @admin or
 * @dangerous): main/core/monitor/monitorSource.ts reads the reply with core/redis/refusal.ts and
 * ends the stream NOPERM or UNSUPPORTED. Shown as the one line of a missing command, not as an error.
 */
export function monitorRestriction(error: AppError): Restriction | undefined {
  return error.code === 'NOPERM' || error.code === 'UNSUPPORTED'
    ? { command: 'MONITOR', effect: `no command stream from this node (${error.message})` }
    : undefined;
}
