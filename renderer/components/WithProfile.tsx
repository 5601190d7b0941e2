import { Fragment, type ReactNode } from 'react';
import type { ProfileView } from '../../app/schemas/connections';
import { useProfiles } from '../profiles/ProfilesContext';
import { NoProfile } from './NoProfile';

interface Props {
  /** What a connection would give, e.g. "see its live overview". */
  purpose: string;
  testId: string;
  /** The page for the profile chosen in the header; remounted when the choice changes. */
  children(profile: ProfileView): ReactNode;
}

/** A page that works on the chosen profile: the page itself once there is one, NoProfile until then. */
export function WithProfile({ purpose, testId, children }: Props) {
  const { profiles, selected, loading, error } = useProfiles();
  if (selected === undefined) return <NoProfile loading={loading && profiles.length === 0} error={error} purpose={purpose} testId={testId} />;
  // Keyed by profile: nothing a page holds for one profile leaks into the next.
  return <Fragment key={selected.id}>{children(selected)}</Fragment>;
}
