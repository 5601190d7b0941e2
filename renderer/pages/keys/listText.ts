import { formatBytes, formatCount, formatDuration } from '../../lib/format';
import type { KeyList } from './useKeyList';

/** Where the list stands, plainly: "complete: 42 keys", "200 of 1,204", "listing by SCAN (no index)". */
export function listStatus(l: Pick<KeyList, 'keys' | 'complete' | 'source' | 'total' | 'loading'>): string {
  const n = formatCount(l.keys.length);
  if (l.source === undefined) return l.loading ? 'Listing…' : '';
  // SCAN gives keys in hash-table order: each page is sorted, the whole list is not.
  const by = l.source === 'scan' ? ' · listing by SCAN (no index), in SCAN order' : l.source === 'deep' ? ' · from the deep index' : '';
  if (l.complete) return `complete: ${n} key${l.keys.length === 1 ? '' : 's'}${by}`;
  const of = l.total === null ? '' : ` of ${formatCount(l.total)}`;
  return `${n}${of} listed, more as you scroll${by}`;
}

/** A listed key's TTL: "no TTL", "3m 12s", or "—" when not known (not probed, no deep index). */
export function ttlText(ttlMs: number | null): string {
  if (ttlMs === null) return '—';
  if (ttlMs < 0) return 'no TTL';
  return ttlMs < 1000 ? `${ttlMs} ms` : formatDuration(ttlMs / 1000);
}

export function memoryText(bytes: number | null): string {
  return bytes === null ? '—' : formatBytes(bytes);
}
