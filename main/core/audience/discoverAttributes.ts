import type { AudienceAttributes, AttributeInfo, LayoutKind } from '../../../app/schemas/audience';
import { int, type AudienceLink } from './audienceLink';
import { globEscape, literalHead, type LayoutKeys, type MembershipKind } from './layoutKeys';
import { probeUserDays } from './userDaysProbe';

/** How long discovery may walk the keyspace before it reports what it found (truncated). */
const DISCOVERY_MS = 3_000;
/** Attribute values listed at most (a builder with more is unusable anyway). */
const MAX_VALUES = 10_000;
const WORD = '([A-Za-z0-9_.+-]+)';
const DAY = '(\\d{4}-\\d{2}-\\d{2})';

/** A template as an anchored regex capturing its placeholders in order of appearance. */
function matcher(template: string): { re: RegExp; order: string[] } {
  const order: string[] = [];
  const source = template.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{(name|value|day)\\\}/g, (_, p: string) => {
    order.push(p);
    return p === 'day' ? DAY : WORD;
  });
  return { re: new RegExp(`^${source}$`), order };
}

/** Every key starting with one of `heads`, by SCAN MATCH, until the end or the time bound. */
async function scanHeads(link: AudienceLink, heads: string[], visit: (key: string) => void, deadline: number): Promise<{ scanned: number; truncated: boolean }> {
  let scanned = 0;
  for (const head of new Set(heads)) {
    let cursor = '0';
    do {
      if (performance.now() > deadline) return { scanned, truncated: true };
      const [reply] = await link.call([['SCAN', cursor, 'MATCH', `${globEscape(head)}*`, 'COUNT', '10000']]);
      if (!Array.isArray(reply)) break;
      cursor = String(reply[0]);
      const keys = Array.isArray(reply[1]) ? reply[1] : [];
      scanned += keys.length;
      for (const k of keys) visit(String(k));
    } while (cursor !== '0');
  }
  return { scanned, truncated: false };
}

/**
 * What the builder offers: attribute names and values (with their user counts) and the
 * days with activity, found by SCAN over the layout's templates, never KEYS.
 */
export async function discoverAttributes(link: AudienceLink, keys: LayoutKeys): Promise<AudienceAttributes> {
  const deadline = performance.now() + DISCOVERY_MS;
  const kinds: MembershipKind[] = ['bitmap', 'set'];
  const attrT = kinds.map((k) => matcher(keys.prefix + (k === 'bitmap' ? keys.layout.bitmapAttr : keys.layout.setAttr)));
  const dayT = kinds.map((k) => matcher(keys.prefix + (k === 'bitmap' ? keys.layout.bitmapActive : keys.layout.setActive)));
  const values = new Map<string, Map<string, { layouts: Set<MembershipKind>; key: Partial<Record<MembershipKind, string>> }>>();
  const days = new Set<string>();
  let capped = false;
  let listed = 0;

  const onAttr = (key: string) => {
    kinds.forEach((kind, i) => {
      const { re, order } = attrT[i] as { re: RegExp; order: string[] };
      const m = re.exec(key);
      if (m === null) return;
      const name = m[order.indexOf('name') + 1] as string;
      const value = m[order.indexOf('value') + 1] as string;
      let byValue = values.get(name);
      if (byValue === undefined) values.set(name, (byValue = new Map()));
      let v = byValue.get(value);
      if (v === undefined) {
        if (listed >= MAX_VALUES) return void (capped = true);
        listed++;
        byValue.set(value, (v = { layouts: new Set(), key: {} }));
      }
      v.layouts.add(kind);
      v.key[kind] = key;
    });
  };
  const onDay = (key: string) => {
    for (const t of dayT) {
      const m = t.re.exec(key);
      if (m !== null) days.add(m[1] as string);
    }
  };
  const a = await scanHeads(link, attrT.map((_, i) => literalHead(keys.prefix + (i === 0 ? keys.layout.bitmapAttr : keys.layout.setAttr))), onAttr, deadline);
  const d = await scanHeads(link, [keys.prefix + literalHead(keys.layout.bitmapActive), keys.prefix + literalHead(keys.layout.setActive)], onDay, deadline);

  const flat = [...values].flatMap(([name, byValue]) => [...byValue].map(([value, v]) => ({ name, value, v })));
  const counts = flat.length === 0 ? [] : await link.send(flat.map(({ v }) => (v.key.bitmap !== undefined ? ['BITCOUNT', v.key.bitmap] : ['SCARD', v.key.set as string])));
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
    scanned: a.scanned + d.scanned,
    truncated: a.truncated || d.truncated || capped,
  };
}
