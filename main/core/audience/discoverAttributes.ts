import type { AudienceAttributes, AttributeInfo, LayoutKind } from '../../../app/schemas/audience';
import type { Reply } from '../resp/replyReader';
import { int, type AudienceLink } from './audienceLink';
import { KeyRoles } from './keyRoles';
import { globEscape, literalHead, type LayoutKeys, type MembershipKind } from './layoutKeys';
import { probeUserDays } from './userDaysProbe';

/** How long discovery may walk the keyspace before it reports what it found (truncated). */
const DISCOVERY_MS = 3_000;
/** Attribute values listed at most (a builder with more is unusable anyway). */
const MAX_VALUES = 10_000;
/** Keys named per warning. */
const EXAMPLES = 3;

/** Every key starting with one of `heads`, by SCAN MATCH, until the end or the time bound. */
async function scanHeads(link: AudienceLink, heads: string[], visit: (key: Reply) => void, deadline: number): Promise<{ scanned: number; truncated: boolean }> {
  let scanned = 0;
  for (const head of heads) {
    let cursor = '0';
    do {
      if (performance.now() > deadline) return { scanned, truncated: true };
      const [reply] = await link.call([['SCAN', cursor, 'MATCH', `${globEscape(head)}*`, 'COUNT', '10000']]);
      if (!Array.isArray(reply)) break;
      cursor = String(reply[0]);
      const keys = Array.isArray(reply[1]) ? reply[1] : [];
      scanned += keys.length;
      for (const k of keys) visit(k);
    } while (cursor !== '0');
  }
  return { scanned, truncated: false };
}

/** The heads to SCAN: one covering another (`a` covers `ab`) is enough, so no key is visited twice. */
function distinctHeads(heads: string[]): string[] {
  const unique = [...new Set(heads)];
  return unique.filter((h) => !unique.some((other) => other !== h && h.startsWith(other)));
}

/** Keys left out of the listing, counted, with a few to name. */
class Skipped {
  count = 0;
  readonly examples: string[] = [];

  add(key: string): void {
    this.count++;
    if (this.examples.length < EXAMPLES) this.examples.push(key.length > 80 ? `${key.slice(0, 80)}…` : key);
  }

  /** `n keys <why>; not listed (e.g. …)`, or nothing when none was left out. */
  warning(why: string): string[] {
    return this.count === 0 ? [] : [`${this.count} ${this.count === 1 ? 'key' : 'keys'} ${why}; not listed (e.g. ${this.examples.join(', ')})`];
  }
}

/**
 * What the builder offers: attribute names and values (with their user counts) and the
 * days with activity, found by SCAN over the layout's templates, never KEYS. Names and
 * values may hold any text; what cannot be listed (a key under the layout's prefixes that
 * fits none of its templates, or one whose name is not UTF-8) is counted and named in a
 * warning, never dropped silently.
 */
export async function discoverAttributes(link: AudienceLink, keys: LayoutKeys): Promise<AudienceAttributes> {
  const deadline = performance.now() + DISCOVERY_MS;
  const kinds: MembershipKind[] = ['bitmap', 'set'];
  const roles = new KeyRoles(keys);
  const values = new Map<string, Map<string, { layouts: Set<MembershipKind>; key: Partial<Record<MembershipKind, string>> }>>();
  const days = new Set<string>();
  const unfit = new Skipped();
  const notText = new Skipped();
  let capped = false;
  let listed = 0;

  const layout = keys.layout;
  const heads = [layout.bitmapAttr, layout.setAttr, layout.bitmapActive, layout.setActive].map((t) => literalHead(keys.prefix + t));
  // With an empty head the SCAN walks every key: keys of other applications are no news then.
  const counted = (key: string) => heads.some((h) => h !== '' && key.startsWith(h));

  const visit = (raw: Reply) => {
    const key = String(raw);
    // A name that does not survive decoding could never be typed back into a key.
    if (Buffer.isBuffer(raw) && !Buffer.from(key, 'utf8').equals(raw)) return void (counted(key) && notText.add(key));
    const role = roles.of(key);
    if (role === undefined) return void (counted(key) && unfit.add(key));
    if (role.kind === 'day') return void days.add(role.day);
    if (role.kind !== 'attr') return;
    let byValue = values.get(role.name);
    if (byValue === undefined) values.set(role.name, (byValue = new Map()));
    let v = byValue.get(role.value);
    if (v === undefined) {
      if (listed >= MAX_VALUES) return void (capped = true);
      listed++;
      byValue.set(role.value, (v = { layouts: new Set(), key: {} }));
    }
    v.layouts.add(role.layout);
    v.key[role.layout] = key;
  };
  const scan = await scanHeads(link, distinctHeads(heads), visit, deadline);

  const flat = [...values].flatMap(([name, byValue]) => [...byValue].map(([value, v]) => ({ name, value, v })));
  const counts =
    flat.length === 0 ? [] : await link.send(flat.map(({ v }) => (v.key.bitmap !== undefined ? ['BITCOUNT', v.key.bitmap] : ['SCARD', v.key.set as string])));
  const attributes: AttributeInfo[] = [...values.keys()].sort().map((name) => ({
    name,
    values: flat
      .map((f, i) => ({ ...f, users: typeof counts[i] === 'number' ? int(counts[i]) : 0 }))
      .filter((f) => f.name === name)
      .sort((x, y) => x.value.localeCompare(y.value, 'en', { numeric: true }))
      .map((f) => ({ value: f.value, layouts: kinds.filter((k) => f.v.layouts.has(k)) as LayoutKind[], users: f.users })),
  }));
  const sortedDays = [...days].sort();
  const anySet = flat.find((f) => f.v.key.set !== undefined);
  return {
    attributes,
    days: { ...(sortedDays.length > 0 ? { first: sortedDays[0], last: sortedDays[sortedDays.length - 1] } : {}), count: sortedDays.length },
    layouts: {
      bitmap: flat.some((f) => f.v.layouts.has('bitmap')),
      set: anySet !== undefined,
      zset: anySet === undefined ? false : (await probeUserDays(link, keys, anySet.v.key.set as string)).exists,
    },
    scanned: scan.scanned,
    truncated: scan.truncated || capped,
    skipped: unfit.count + notText.count,
    warnings: [
      ...unfit.warning(`under ${[...new Set(heads.filter((h) => h !== ''))].join(', ')} fitting no template of the layout`),
      ...notText.warning('whose name is not UTF-8 text, which no expression can name'),
    ],
  };
}
