import type { ProfileView } from '../../app/schemas/connections';

/** Below this many profiles a list is short enough to read whole: no filter, no groups. */
export const TAG_FILTER_FROM = 7;

export interface ProfileGroup {
  /** The tag the group is under; undefined for the profiles with none. */
  tag: string | undefined;
  profiles: ProfileView[];
}

/**
 * The header's profile list, grouped by tag once it is longer than a handful (the Connections
 * page's filter shows from the same count): a profile sits under its first tag (tags are kept
 * sorted), so each appears once; the untagged come last. A short list, or one with no tags, is
 * one group in the order given.
 */
export function profileGroups(profiles: readonly ProfileView[]): ProfileGroup[] {
  const tagged = profiles.some((p) => (p.tags ?? []).length > 0);
  if (profiles.length < TAG_FILTER_FROM || !tagged) return [{ tag: undefined, profiles: [...profiles] }];
  const byTag = new Map<string, ProfileView[]>();
  const untagged: ProfileView[] = [];
  for (const p of profiles) {
    const first = p.tags?.[0];
    if (first === undefined) untagged.push(p);
    else byTag.set(first, [...(byTag.get(first) ?? []), p]);
  }
  const groups: ProfileGroup[] = [...byTag].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([tag, ps]) => ({ tag, profiles: ps }));
  return untagged.length > 0 ? [...groups, { tag: undefined, profiles: untagged }] : groups;
}
