import { AppError } from '../../../../app/errors';
import type { ListedKey } from '../../../../app/schemas/keys';
import type { KeyType } from '../../../../app/schemas/sampling';
import { keyRef } from '../keyRef';
import { globMatch, literalPrefix } from './globMatch';
import type { KeysReader } from './indexTargets';
import { sortByName, type KeyIndex } from './keyIndex';
import { probeKeys } from './probeKeys';
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
 * Keys matching a glob (Redis' own matcher, globMatch.ts), a page at a time. From a complete
 * name index: only the names under the pattern's literal prefix are walked, sorted by name,
 * and `total` is known. Otherwise (no index yet, one still building, names over budget): a
 * paced SCAN MATCH, page order as SCAN gives it (each page sorted), `total` unknown. Each
 * page's keys get TYPE and PTTL (pipelined), which the type and no-TTL filters use. NEVER KEYS.
 */
export async function listKeys(index: KeyIndex | null, q: ListQuery, reader: KeysReader): Promise<ListResult> {
  if (q.sort !== 'name') throw new AppError('VALIDATION', `sorting by ${q.sort} needs the deep index: build the deep index first`, 'sort');
  const useIndex = index !== null && index.state.complete && index.store !== null && (q.cursor === undefined || q.cursor.startsWith('i.'));
  if (useIndex) return fromIndex(index, q, reader);
  if (q.cursor?.startsWith('i.') === true) throw new AppError('VALIDATION', 'the name index this list came from is gone: start the list again', 'cursor');
  return fromScan(q, reader);
}

/** Every name the index holds that matches, in byte order (asc or desc). */
function matches(index: KeyIndex, match: Buffer): number[] {
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
  const all = matches(index, q.match);
  if (q.order === 'desc') all.reverse();
  let pos = q.cursor === undefined ? 0 : Number(/^i\.(\d{1,12})$/.exec(q.cursor)?.[1] ?? NaN);
  if (!Number.isSafeInteger(pos)) throw new AppError('VALIDATION', 'cursor is not one this list gave (start the list again)', 'cursor');
  const keys: ListedKey[] = [];
  let probed = 0;
  while (pos < all.length && keys.length < q.limit && probed < MAX_PROBED) {
    const take = filtered(q) ? Math.min(500, all.length - pos) : Math.min(q.limit - keys.length, all.length - pos);
    const batch = all.slice(pos, pos + take).map((id) => Buffer.from(store.name(id)));
    probed += batch.length;
    let used = 0;
    for (const p of await probeKeys(reader, batch)) {
      used++;
      if (keep(q, p.type, p.ttlMs)) keys.push({ key: keyRef(p.key), type: p.type, ttlMs: p.ttlMs, memory: null });
      if (keys.length >= q.limit) break;
    }
    pos += used;
  }
  const complete = pos >= all.length;
  return { keys, cursor: complete ? null : `i.${pos}`, complete, source: 'index', total: all.length };
}

async function fromScan(q: ListQuery, reader: KeysReader): Promise<ListResult> {
  const page = await scanPage(reader, q.match, q.cursor, q.limit);
  page.keys.sort(Buffer.compare);
  if (q.order === 'desc') page.keys.reverse();
  const keys: ListedKey[] = [];
  for (const p of await probeKeys(reader, page.keys)) {
    if (keep(q, p.type, p.ttlMs)) keys.push({ key: keyRef(p.key), type: p.type, ttlMs: p.ttlMs, memory: null });
  }
  return { keys, cursor: page.cursor, complete: page.cursor === null, source: 'scan', total: null };
}

function filtered(q: ListQuery): boolean {
  return q.type !== undefined || q.noTtl;
}

/** A key gone since it was listed is left out; the filters as asked. */
function keep(q: ListQuery, type: KeyType | null, ttlMs: number | null): boolean {
  if (type === null) return false;
  if (q.type !== undefined && type !== q.type) return false;
  if (q.noTtl && ttlMs !== -1) return false;
  return true;
}
