import { insertHash, mix } from './keyHash';

/**
 * Up to this many hashes are deduplicated through a hash table (at most 16
 * bytes of table a hash, kept for the next call: at most 16 MB); more are
 * sorted in place instead, which needs no memory but is ~4x slower.
 */
export const HASH_TABLE_MAX = 1 << 20;

/**
 * Removes repeated hashes from pairs[0, 2n) (hash i is pairs[2i] hi,
 * pairs[2i + 1] lo, never 0/0), keeping the first of each at the front in
 * input order; returns how many are left. `table` is scratch for the next
 * call: a partition of a 17.2M-key load is ~67,000 hashes, so its table stays
 * in the CPU cache, where one big table for every key would miss it on
 * almost every insert.
 */
export class HashDeduper {
  private table = new Uint32Array(0);

  constructor(private readonly tableMax = HASH_TABLE_MAX) {}

  dedupe(pairs: Uint32Array, n: number): number {
    return n > this.tableMax ? dedupeSorted(pairs, n) : this.dedupeHashed(pairs, n);
  }

  private dedupeHashed(pairs: Uint32Array, n: number): number {
    let slots = 16;
    while (slots < 2 * n) slots *= 2;
    if (this.table.length < 2 * slots) this.table = new Uint32Array(2 * slots);
    const table = this.table;
    const mask = slots - 1;
    let kept = 0;
    for (let k = 0; k < n; k++) {
      const hi = pairs[2 * k] as number;
      const lo = pairs[2 * k + 1] as number;
      if (!insertHash(table, slots, mix(hi, lo) & mask, hi, lo)) continue;
      pairs[2 * kept] = hi;
      pairs[2 * kept + 1] = lo;
      kept++;
    }
    table.fill(0, 0, 2 * slots);
    return kept;
  }
}

/** Sorts the hashes as 64-bit integers (natively, no comparator) and keeps one of each run. */
function dedupeSorted(pairs: Uint32Array, n: number): number {
  new BigUint64Array(pairs.buffer, pairs.byteOffset, n).sort();
  let kept = n > 0 ? 1 : 0;
  for (let k = 1; k < n; k++) {
    const hi = pairs[2 * k] as number;
    const lo = pairs[2 * k + 1] as number;
    if (hi === pairs[2 * kept - 2] && lo === pairs[2 * kept - 1]) continue;
    pairs[2 * kept] = hi;
    pairs[2 * kept + 1] = lo;
    kept++;
  }
  return kept;
}
