import type { MemoryInterval } from '../../../app/schemas/sampling';
import { Z95 } from './wilson';

/**
 * Memory of one kind over a run's draws: how many drew it, their sum, sum of
 * squares, the largest and how often that key was drawn. Updated in place: a
 * census adds every key, so adding allocates nothing (but a copy of a new largest key).
 */
export class MemoryMoments {
  /** Draws of this kind (keys of this type; every key for the total). */
  count = 0;
  sum = 0;
  sumSq = 0;
  max = 0;
  /** How often the key of that largest size was drawn. */
  maxDraws = 0;
  /** That key, to know it when drawn again. */
  private maxKey: Buffer | undefined;

  /** One more draw of `memory` bytes, of `key` (a sample draws with replacement: the same key may come again). */
  add(memory: number, key?: Buffer): this {
    this.count++;
    this.sum += memory;
    this.sumSq += memory * memory;
    if (memory > this.max || this.count === 1) {
      this.max = memory;
      this.maxDraws = 1;
      // Copied: the key may be a view into a socket chunk that is reused.
      this.maxKey = key === undefined ? undefined : Buffer.from(key);
    } else if (memory === this.max && key !== undefined && this.maxKey?.equals(key) === true) {
      this.maxDraws++;
    }
    return this;
  }
}

/** Fewer draws of a kind than this and the interval's normal approximation means nothing. */
export const MIN_DRAWS = 5;
/** One key holding more than this share of a kind's sampled memory: the figure is that key's luck (how often it was drawn). */
export const MAX_ONE_KEY_SHARE = 0.5;

/** One more draw of `memory` bytes, of `key` (a sample draws with replacement: the same key may come again). */
/**
 * The 95% interval of a sampled memory total: `draws` RANDOMKEY draws (with
 * replacement) of a DB of `dbsize` keys, of which `m` were of the kind. Each draw
 * contributes its memory when of the kind, 0 otherwise; the total is dbsize ×
 * their mean, and its interval dbsize × (mean ± z·sd/√draws). Heavy tails break
 * that (one big list drawn and scaled up by dbsize/draws), so it is refused, with
 * the reason, when the kind was drawn fewer than MIN_DRAWS times or its biggest
 * key (however often drawn) holds over half of what the sample saw of it: the
 * figure then says how often that key was drawn, not what the DB holds. A
 * census is exact.
 */
export function memoryInterval(m: MemoryMoments, draws: number, dbsize: number, exact: boolean): MemoryInterval {
  if (exact) return { low: m.sum, high: m.sum };
  if (draws === 0 || m.count === 0) return { low: 0, high: 0, note: 'none drawn: it may still hold keys the sample missed' };
  if (m.count < MIN_DRAWS) {
    return { notEstimable: `only ${m.count} key${m.count === 1 ? '' : 's'} of it drawn; run a census for this figure` };
  }
  const biggest = m.max * m.maxDraws;
  if (biggest > MAX_ONE_KEY_SHARE * m.sum) {
    const pct = Math.round((biggest / m.sum) * 100);
    const times = m.maxDraws === 1 ? 'drawn once' : `drawn ${m.maxDraws} times`;
    return { notEstimable: `one key (${times}) makes up ${pct}% of what the sample saw of it; run a census for this figure` };
  }
  const mean = m.sum / draws;
  const variance = draws > 1 ? Math.max(0, (m.sumSq - draws * mean * mean) / (draws - 1)) : 0;
  const half = Z95 * Math.sqrt(variance / draws) * dbsize;
  const estimate = mean * dbsize;
  // The keys seen exist: the total holds at least the biggest of them.
  return { low: Math.round(Math.max(m.max, estimate - half)), high: Math.round(estimate + half) };
}
