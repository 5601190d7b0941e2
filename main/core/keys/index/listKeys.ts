import { AppError } from '../../../../app/errors';
import type { ListedKey } from '../../../../app/schemas/keys';
import type { KeyType } from '../../../../app/schemas/sampling';
import { keyRef } from '../keyRef';
import { globMatch, literalPrefix } from '../../redis/glob';
import type { KeysReader } from './indexTargets';
import { DEEP_TYPES, type DeepColumns } from './deepColumns';
import { sortByName, type KeyIndex } from './keyIndex';
import { probeKeys, shownTtl } from './probeKeys';
import { scanPage } from './scanPage';

export interface ListQuery {
  match: Buffer;
  type?: KeyType | undefined;
  noTtl: boolean;
  sort: 'name' | 'ttl' | 'memory';
  order: 'asc' | 'desc';
  cursor?: string | undefined;
  limit: number;
}

export interface ListResult {
  keys: ListedKey[];
  cursor: string | null;
  complete: boolean;
  source: 'index' | 'deep' | 'scan';
  total: number | null;
}

/** Candidates one call probes (TYPE, PTTL) at most when a filter drops most of them. */
const MAX_PROBED = 5000;

/**
 * Keys matching a glob (Redis' own matcher, redis/glob.ts), a page at a time. From a complete
 * name index: only the names under the pattern's literal prefix are walked, sorted by name,
 * and `total` is known. Otherwise (no index yet, one still building, names over budget): a
 * paced SCAN MATCH, page order as SCAN gives it (each page sorted), `total` unknown. Each
 * page's keys get TYPE and PTTL (pipelined), which the type and no-TTL filters use (the latter
 * also a hash's field TTLs, probeKeys.ts). NEVER KEYS.
 */
export async function listKeys(index: KeyIndex | null, q: ListQuery, reader: KeysReader): Promise<ListResult> {
  if (q.sort !== 'name') {
    if (index === null || index.deep === null || index.store === null)
      throw new AppError('VALIDATION', `sorting by ${q.sort} needs the deep index: build the deep index first`, 'sort');
    return fromDeep(index, index.deep, q);
  }
  const useIndex = index !== null && index.state.complete && index.store !== null && (q.cursor === undefined || q.cursor.startsWith('i.'));
  if (useIndex) return fromIndex(index, q, reader);
  if (q.cursor?.startsWith('i.') === true) throw new AppError('VALIDATION', 'the name index this list came from is gone: start the list again', 'cursor');
  return fromScan(q, reader);
}

/** Every name the index holds that matches, in byte order (asc or desc). */
/**
 * The last few globs' sorted matches per index: a list is read page after page (a virtual list
 * scrolling), and walking and sorting a million names again for each page would cost a second.
 * A finished index changes only when keys a bulk delete removed are taken out (`changes`), so
 * the cache, keyed by that count too, is exact; it goes with the index.
 */
const CACHED_GLOBS = 4;
const matchCache = new WeakMap<KeyIndex, Map<string, number[]>>();

function matches(index: KeyIndex, match: Buffer): number[] {
  let cache = matchCache.get(index);
  if (cache === undefined) matchCache.set(index, (cache = new Map()));
  const key = `${index.changes}\u0000${match.toString('latin1')}`;
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const found = matchingIds(index, match);
  cache.set(key, found);
  if (cache.size > CACHED_GLOBS) cache.delete(cache.keys().next().value as string);
  return found;
}

/** The ids of every name the index holds that matches the glob, in byte order (none when the names went over budget). */
export function matchingIds(index: KeyIndex, match: Buffer): number[] {
  const store = index.store;
  if (store === null) return [];
  const { prefix } = literalPrefix(match);
  const { folder, depth } = index.deepest(prefix);
  const rest = prefix.subarray(depth);
  const sep = index.separator;
  // A sub-folder can hold matches only when its segment + separator starts with what is left of the prefix.
  const enter = (seg: string): boolean => {
    const path = Buffer.concat([Buffer.from(seg, 'latin1'), sep]);
    return path.length >= rest.length ? path.subarray(0, rest.length).equals(rest) : rest.subarray(0, path.length).equals(path);
  };
  const ids: number[] = [];
  for (const id of index.idsUnder(folder, enter)) {
    const name = store.name(id);
    if (name.length >= prefix.length && name.subarray(0, prefix.length).equals(prefix) && globMatch(match, name)) ids.push(id);
  }
  return sortByName(store, ids);
}

async function fromIndex(index: KeyIndex, q: ListQuery, reader: KeysReader): Promise<ListResult> {
  const store = index.store;
  if (store === null) throw new AppError('INTERNAL', 'the name index went over budget');
  const all = q.order === 'desc' ? [...matches(index, q.match)].reverse() : matches(index, q.match);
  let pos = q.cursor === undefined ? 0 : Number(/^i\.(\d{1,12})$/.exec(q.cursor)?.[1] ?? NaN);
  if (!Number.isSafeInteger(pos)) throw new AppError('VALIDATION', 'cursor is not one this list gave (start the list again)', 'cursor');
  const keys: ListedKey[] = [];
  let probed = 0;
  while (pos < all.length && keys.length < q.limit && probed < MAX_PROBED) {
    const take = filtered(q) ? Math.min(500, all.length - pos) : Math.min(q.limit - keys.length, all.length - pos);
    const batch = all.slice(pos, pos + take).map((id) => Buffer.from(store.name(id)));
    probed += batch.length;
    let used = 0;
    for (const p of await probeKeys(reader, batch, { fieldTtls: q.noTtl })) {
      used++;
      if (keep(q, p.type, p.ttlMs)) keys.push({ key: keyRef(p.key), type: p.type, ttlMs: shownTtl(p.ttlMs), memory: null });
      if (keys.length >= q.limit) break;
    }
    pos += used;
  }
  const complete = pos >= all.length;
  return { keys, cursor: complete ? null : `i.${pos}`, complete, source: 'index', total: all.length };
}

/**
 * From the deep index: the matches sorted by TTL (soonest first; keys without a TTL last) or
 * memory, filtered by its recorded type and TTL, with no probe: figures as of the deep pass.
 */
function fromDeep(index: KeyIndex, deep: DeepColumns, q: ListQuery): ListResult {
  const store = index.store as NonNullable<KeyIndex['store']>;
  const ttlKey = (id: number) => {
    const t = deep.ttl[id] as number;
    return t < 0 ? Number.POSITIVE_INFINITY : t;
  };
  const keyOf = q.sort === 'ttl' ? ttlKey : (id: number) => deep.memory[id] as number;
  const all = matches(index, q.match).filter((id) => {
    const type = DEEP_TYPES[deep.type[id] as number] ?? null;
    return keep(q, type, type === null ? null : (deep.ttl[id] as number));
  });
  // Stable: equal figures keep name order.
  all.sort((a, b) => keyOf(a) - keyOf(b));
  if (q.order === 'desc') all.reverse();
  const pos = q.cursor === undefined ? 0 : Number(/^d\.(\d{1,12})$/.exec(q.cursor)?.[1] ?? NaN);
  if (!Number.isSafeInteger(pos)) throw new AppError('VALIDATION', 'cursor is not one this list gave (start the list again)', 'cursor');
  const page = all.slice(pos, pos + q.limit);
  const keys: ListedKey[] = page.map((id) => ({
    key: keyRef(Buffer.from(store.name(id))),
    type: DEEP_TYPES[deep.type[id] as number] ?? null,
    ttlMs: shownTtl(deep.ttl[id] as number),
    memory: deep.memory[id] as number,
  }));
  const end = pos + page.length;
  return { keys, cursor: end < all.length ? `d.${end}` : null, complete: end >= all.length, source: 'deep', total: all.length };
}

async function fromScan(q: ListQuery, reader: KeysReader): Promise<ListResult> {
  const page = await scanPage(reader, q.match, q.cursor, q.limit);
  page.keys.sort(Buffer.compare);
  if (q.order === 'desc') page.keys.reverse();
  const keys: ListedKey[] = [];
  for (const p of await probeKeys(reader, page.keys, { fieldTtls: q.noTtl })) {
    if (keep(q, p.type, p.ttlMs)) keys.push({ key: keyRef(p.key), type: p.type, ttlMs: shownTtl(p.ttlMs), memory: null });
  }
  return { keys, cursor: page.cursor, complete: page.cursor === null, source: 'scan', total: null };
}

function filtered(q: ListQuery): boolean {
  return q.type !== undefined || q.noTtl;
}

/**
 * A key gone since it was listed is left out; the filters as asked. No TTL is -1 only: a hash
 * whose fields expire (FIELDS_EXPIRE, probeKeys.ts) has one, as sampling's `fields` bucket says.
 */
function keep(q: ListQuery, type: KeyType | null, ttlMs: number | null): boolean {
  if (type === null) return false;
  if (q.type !== undefined && type !== q.type) return false;
  if (q.noTtl && ttlMs !== -1) return false;
  return true;
}
