import { AudienceLayout, type AudienceLayoutInput } from '../../../app/schemas/audience';
import type { ProfileView } from '../../../app/schemas/connections';

/** The layout's inputs, in the order the panel shows them. */
export const LAYOUT_FIELDS = ['bitmapAttr', 'bitmapActive', 'bitmapAll', 'setAttr', 'setActive', 'setAll', 'userDays', 'hashTag', 'scratchPrefix'] as const;
export type LayoutField = (typeof LAYOUT_FIELDS)[number];

/** The key layout as typed: empty hash tag = none (on a cluster, the page's own). */
export type LayoutForm = Record<LayoutField, string>;

/** The contract's defaults (what the demo writes), as the inputs show them. */
export const DEFAULT_LAYOUT: LayoutForm = { hashTag: '', ...AudienceLayout.parse({}) };

/** The hash tag the page uses on a cluster when none is typed; demo data writes it too. */
export const CLUSTER_HASH_TAG = 'aud';

/** What each input is, for its label and hint. */
export const LAYOUT_LABELS: Record<LayoutField, { label: string; hint: string }> = {
  bitmapAttr: { label: 'Attribute bitmap', hint: 'bit n set: user n holds {name}={value}' },
  bitmapActive: { label: 'Activity bitmap', hint: 'bit n set: user n was active on {day} (YYYY-MM-DD)' },
  bitmapAll: { label: 'All-users bitmap', hint: 'every user, for NOT' },
  setAttr: { label: 'Attribute set', hint: 'ids of the users holding {name}={value}' },
  setActive: { label: 'Activity set', hint: 'ids of the users active on {day}' },
  setAll: { label: 'All-users set', hint: 'every user id, for NOT' },
  userDays: { label: 'User days zset', hint: 'one per user {id}: member YYYY-MM-DD' },
  hashTag: { label: 'Hash tag', hint: `cluster: every key in one slot, {tag}:…; empty on a cluster: ${CLUSTER_HASH_TAG}` },
  scratchPrefix: { label: 'Scratch prefix', hint: 'temporary keys (with a TTL, removed after each run)' },
};

/**
 * The layout an audience call sends: only what differs from the defaults (none
 * at all when nothing does), and on a cluster a hash tag, because BITOP,
 * SINTERSTORE, ZUNIONSTORE and the script need all their keys in one slot (the
 * server refuses a cluster layout without one). Templates go as typed, so the
 * server's refusal names what the user wrote.
 */
export function layoutInput(profile: Pick<ProfileView, 'topology'>, f: LayoutForm = DEFAULT_LAYOUT): AudienceLayoutInput | undefined {
  const out: AudienceLayoutInput = {};
  for (const k of LAYOUT_FIELDS) if (k !== 'hashTag' && f[k] !== DEFAULT_LAYOUT[k]) out[k] = f[k];
  const tag = f.hashTag.trim();
  if (tag !== '') out.hashTag = tag;
  else if (profile.topology?.kind === 'cluster') out.hashTag = CLUSTER_HASH_TAG;
  return Object.keys(out).length === 0 ? undefined : out;
}

/** The contract's complaint about each input, checked here so the panel says it as one types. */
export function layoutErrors(profile: Pick<ProfileView, 'topology'>, f: LayoutForm): Partial<Record<LayoutField, string>> {
  const parsed = AudienceLayout.safeParse(layoutInput(profile, f) ?? {});
  const errors: Partial<Record<LayoutField, string>> = {};
  if (parsed.success) return errors;
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && (LAYOUT_FIELDS as readonly string[]).includes(field)) errors[field as LayoutField] ??= issue.message;
  }
  return errors;
}

export const isDefaultLayout = (f: LayoutForm): boolean => LAYOUT_FIELDS.every((k) => f[k] === DEFAULT_LAYOUT[k]);

/** A layout read back from storage (user-editable, older versions): every input a string, else nothing. */
export function parseStoredLayout(value: unknown): LayoutForm | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  const out = { ...DEFAULT_LAYOUT };
  for (const k of LAYOUT_FIELDS) {
    const field = v[k];
    if (field === undefined) continue;
    if (typeof field !== 'string' || field.length > 300) return undefined;
    out[k] = field;
  }
  return out;
}
