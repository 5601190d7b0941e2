import type { z } from 'zod';
import type { Share } from '../../../app/schemas/sampling';

export type ShareRow = z.output<typeof Share>;

/** z for a two-sided 95% interval. */
export const Z95 = 1.959964;

/**
 * Wilson score interval of a proportion `count / n`, in percent. Unlike the
 * normal approximation it stays inside [0, 100] and is honest for rare types
 * (3 hashes in 10,000 draws) and for shares near 100%.
 */
export function wilson(count: number, n: number, z = Z95): { low: number; high: number } {
  if (n <= 0) return { low: 0, high: 0 };
  const p = count / n;
  const z2 = z * z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (z / denom) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return { low: Math.max(0, center - half) * 100, high: Math.min(1, center + half) * 100 };
}

/**
 * `count` of `n` keys as a Share. A census counted every key, so its share is
 * exact (ciLow == ciHigh == percent); a sample gets its Wilson 95% interval.
 * n == 0 (an empty DB) gives zeros, not NaN.
 */
export function share(count: number, n: number, exact: boolean): ShareRow {
  const percent = n > 0 ? (count / n) * 100 : 0;
  if (exact) return { count, percent, ciLow: percent, ciHigh: percent };
  const { low, high } = wilson(count, n);
  return { count, percent, ciLow: low, ciHigh: high };
}

/**
 * Keys of a kind in a DB of `dbsize` keys, from `count` of `n` draws: the share of
 * draws × DBSIZE with the share's Wilson interval scaled alike. A census counted
 * them: exact.
 */
export function estimateKeys(count: number, n: number, dbsize: number, exact: boolean): { keys: number; keysLow: number; keysHigh: number } {
  if (exact) return { keys: count, keysLow: count, keysHigh: count };
  if (n <= 0) return { keys: 0, keysLow: 0, keysHigh: 0 };
  const { low, high } = wilson(count, n);
  return { keys: Math.round((count / n) * dbsize), keysLow: Math.floor((low / 100) * dbsize), keysHigh: Math.ceil((high / 100) * dbsize) };
}
