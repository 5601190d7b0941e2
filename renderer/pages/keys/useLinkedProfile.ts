import { useEffect, useState, useSyncExternalStore } from 'react';
import { useProfiles } from '../../profiles/ProfilesContext';
import { readKeysUrl } from './urlState';

function subscribe(cb: () => void): () => void {
  window.addEventListener('hashchange', cb);
  return () => window.removeEventListener('hashchange', cb);
}

/**
 * A link names its profile (`#/keys?profile=…`): switch the header's choice to it before the
 * page draws, so the key opens on the server the link meant. Once applied, the header rules
 * again (choosing another profile there is not undone by the old link).
 */
export function useLinkedProfile(): { pending: boolean; missing: string | undefined } {
  const { profiles, selected, select, loading } = useProfiles();
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  const wanted = readKeysUrl(hash).profileId;
  const [applied, setApplied] = useState<string>();
  const [missing, setMissing] = useState<string>();
  const known = wanted !== undefined && profiles.some((p) => p.id === wanted);
  const listed = !(loading && profiles.length === 0);

  useEffect(() => {
    if (wanted === undefined || wanted === applied || !listed) return;
    if (!known) {
      setMissing(wanted);
      setApplied(wanted);
      return;
    }
    setMissing(undefined);
    if (selected?.id !== wanted) select(wanted);
    setApplied(wanted);
  }, [wanted, applied, listed, known, selected?.id, select]);

  const pending = wanted !== undefined && wanted !== applied && (!listed || (known && selected?.id !== wanted));
  return { pending, missing };
}
