import { sameDestination } from './topology';
import type { ProfileSpec } from './types';

/**
 * A draft of an edited profile with the saved passwords it left blank filled in, for a
 * connection test. They go only where the saved profile points (same topology, addresses,
 * master name and TLS): never to a host the draft just changed, or the form would send a
 * stored secret anywhere it is told.
 */
export function draftWithSavedSecrets(saved: ProfileSpec, draft: ProfileSpec): ProfileSpec {
  const spec = { ...draft };
  if (!sameDestination(saved, spec)) return spec;
  if (spec.password === undefined && saved.password !== undefined) spec.password = saved.password;
  const [st, dt] = [saved.topology, spec.topology];
  if (st?.kind === 'sentinel' && dt?.kind === 'sentinel' && dt.sentinelPassword === undefined && st.sentinelPassword !== undefined) {
    spec.topology = { ...dt, sentinelPassword: st.sentinelPassword };
  }
  return spec;
}
