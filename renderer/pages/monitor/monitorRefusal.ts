import type { AppError } from '../../../app/errors';
import type { Restriction } from '../../../app/schemas/restrictions';

/**
 * A MONITOR the server refused (a managed service's rename, an ACL user without @admin or
 * @dangerous), as main/core/monitor/monitorSource.ts words it: "<address> refused MONITOR: …".
 * Shown as the one line of a missing command, not as an error.
 */
export function monitorRestriction(error: AppError): Restriction | undefined {
  return /\brefused MONITOR: /.test(error.message) ? { command: 'MONITOR', effect: `no command stream from this node (${error.message})` } : undefined;
}
