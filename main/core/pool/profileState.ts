import type { ConnectionStateName } from '../../../app/schemas/connections';

/** Where one connection is in its life, as the pool tracks it from ioredis events. */
export type ConnPhase = 'connecting' | 'ready' | 'reconnecting' | 'closed';

export interface AggregateInput {
  phases: ConnPhase[];
  /** Detail of the last connection error since the profile was last ready. */
  lastError: string | undefined;
  /** closeProfile() or shutdown() closed it on purpose. */
  closed: boolean;
  /** "host:port", for a reconnecting detail before any error arrived. */
  address: string;
  /** News that goes with a ready state, e.g. "failover: master is now 10.0.0.6:6379". */
  notice?: string | undefined;
}

/**
 * One state per profile over all its connections: ready if any is ready (the
 * UI can work), else the most hopeful of reconnecting/connecting, else error
 * if the last attempt failed, else closed or idle.
 */
export function aggregateState(a: AggregateInput): { state: ConnectionStateName; detail?: string } {
  if (a.phases.includes('ready')) return a.notice === undefined ? { state: 'ready' } : { state: 'ready', detail: a.notice };
  if (a.phases.includes('reconnecting')) {
    return { state: 'reconnecting', detail: a.lastError ?? `connection lost to ${a.address}` };
  }
  if (a.phases.includes('connecting')) return { state: 'connecting' };
  if (a.closed) return { state: 'closed' };
  if (a.lastError !== undefined) return { state: 'error', detail: a.lastError };
  return { state: 'idle' };
}
