import type { ProfileSpec } from '../../../app/schemas/connections';
import type { ErrorContext } from '../pool/redisErrors';
import { openRawConnection, type RawConnection } from './rawConnection';

/** How a job reaches one server over raw sockets of its own, and how its errors name that server. */
export interface RawTarget {
  /** A socket of the job's own, authenticated and on the job's DB (the job closes it). */
  connect: () => Promise<RawConnection>;
  /** Host, port and password, so errors name the server and never echo the password. */
  errorContext: ErrorContext;
}

/** What a run needs to reach a profile's server: its own raw socket, named for CLIENT LIST. */
export function connectionFor(spec: ProfileSpec, db: number, name: string): RawTarget {
  const errorContext: ErrorContext = { host: spec.host, port: spec.port };
  if (spec.password !== undefined) errorContext.password = spec.password;
  return { connect: () => openRawConnection(spec, db, { name }), errorContext };
}
