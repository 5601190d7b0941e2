import type { ConnectionState } from '../../../app/schemas/connections';
import { useStream, type StreamState } from '../../bridge/useStream';

export type StatesById = Readonly<Record<string, ConnectionState>>;

const EMPTY: StatesById = {};

/** Latest state per profile; an event older than the one held is ignored. */
export function foldStates(held: StatesById, events: ConnectionState[]): StatesById {
  let next: Record<string, ConnectionState> | undefined;
  for (const e of events) {
    const cur = (next ?? held)[e.profileId];
    if (cur !== undefined && cur.at > e.at) continue;
    next ??= { ...held };
    next[e.profileId] = e;
  }
  return next ?? held;
}

/** The `connections.state` stream; it sends every profile's current state first. */
export function useConnectionStates(): StreamState<StatesById> {
  return useStream('connections.state', {}, foldStates, EMPTY);
}
