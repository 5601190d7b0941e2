import { int, type AudienceLink } from './audienceLink';
import type { LayoutKeys } from './layoutKeys';

/** Users sampled: one who never watched has no zset, so one user alone could mislead. */
const PROBES = 20;

/**
 * Whether the per-user zset layout exists: a few random members of an id set, then one
 * EXISTS over their `user:{id}:days` keys. Returns a key that was looked for, for messages.
 */
export async function probeUserDays(link: AudienceLink, keys: LayoutKeys, setKey: string): Promise<{ exists: boolean; example?: string }> {
  const [members] = await link.call([['SRANDMEMBER', setKey, String(PROBES)]]);
  const ids = Array.isArray(members) ? members.map((m) => String(m)) : [];
  if (ids.length === 0) return { exists: false };
  const [n] = await link.call([['EXISTS', ...ids.map((id) => keys.userDays(id))]]);
  return { exists: int(n) > 0, example: keys.userDays(ids[0] as string) };
}
