import type { ProfileView } from '../../../app/schemas/connections';
import { TAG_FILTER_FROM } from '../../components/profileGroups';

export const UNTAGGED = '\u0000untagged';

/** Every tag in use with how many profiles carry it, most used first (then by name). */
export function tagCounts(profiles: readonly ProfileView[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const p of profiles) for (const t of p.tags ?? []) counts.set(t, (counts.get(t) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** The profiles a filter shows: all, those with a tag, or those with none. */
export function filterByTag(profiles: readonly ProfileView[], tag: string | undefined): ProfileView[] {
  if (tag === undefined) return [...profiles];
  if (tag === UNTAGGED) return profiles.filter((p) => (p.tags ?? []).length === 0);
  return profiles.filter((p) => (p.tags ?? []).includes(tag));
}

interface Props {
  profiles: readonly ProfileView[];
  value: string | undefined;
  onChange(tag: string | undefined): void;
}

/** Buttons to show one tag's profiles (or the untagged ones), once the list is longer than a handful. */
export function TagFilter({ profiles, value, onChange }: Props) {
  const tags = tagCounts(profiles);
  if (profiles.length < TAG_FILTER_FROM || tags.length === 0) return null;
  const untagged = profiles.filter((p) => (p.tags ?? []).length === 0).length;
  const button = (tag: string | undefined, label: string, n: number) => (
    <button
      key={tag ?? 'all'}
      type="button"
      className="btn btn-small"
      aria-pressed={value === tag}
      onClick={() => onChange(tag)}
      data-testid="tag-filter-option"
      data-tag={tag ?? ''}
    >
      {label} <span className="pt-count">{n}</span>
    </button>
  );
  return (
    <div className="pt-tag-filter" role="group" aria-label="Show profiles tagged" data-testid="tag-filter">
      {button(undefined, 'All', profiles.length)}
      {tags.map(([t, n]) => button(t, t, n))}
      {untagged > 0 && button(UNTAGGED, 'Untagged', untagged)}
    </div>
  );
}
