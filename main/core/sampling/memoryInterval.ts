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
  /**
   * For the skewness (how far a few big draws pull the mean: the normal interval's weak
   * point): sums of powers of (memory - shift), shift being the first draw, so that keys
   * of nearly one size do not lose their spread to rounding in a sum of cubes.
   */
  shift = 0;
  d1 = 0;
  d2 = 0;
  d3 = 0;
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
    if (this.count === 1) this.shift = memory;
    const d = memory - this.shift;
    this.d1 += d;
    this.d2 += d * d;
    this.d3 += d * d * d;
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

/**
 * The 95% interval of a sampled memory total: `draws` RANDOMKEY draws (with
 * replacement) of a DB of `dbsize` keys, of which `m` were of the kind. Each draw
 * contributes its memory when of the kind, 0 otherwise; the total is dbsize ×
 * their mean, and its interval dbsize × (mean ± z·sd/√draws). Heavy tails break
 * that (one big list drawn and scaled up by dbsize/draws), so it is refused, with
 * the reason, when the kind was drawn fewer than MIN_DRAWS times or its biggest
 * key (however often drawn) holds over half of what the sample saw of it: the
 * figure then says how often that key was drawn, not what the DB holds. It is
 * refused too when the draws are skewed past what the normal interval of a mean
 * tolerates: n > 28 + 25·g1² (Cochran's rule as refined by Sugden, Smith and
 * Jones, 2000), g1 the draws' skewness. A census is exact.
 *
 * No figure of the draws can see keys that were never drawn (a 27 MB hash among a
 * million small keys is missed by 10,000 draws 99% of the time): checkAgainstServer
 * compares the interval with what the server says it holds.
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
  const g1 = skewness(m, draws);
  if (draws <= 28 + 25 * g1 * g1) {
    return {
      notEstimable: `the draws are skewed (skewness ${g1.toFixed(0)}: a few keys, or a rare kind, hold most of the memory drawn); ${draws} draws are too few for a 95% interval to hold; run a census for this figure`,
    };
  }
  const half = Z95 * Math.sqrt(variance / draws) * dbsize;
  const estimate = mean * dbsize;
  // The keys seen exist: the total holds at least the biggest of them.
  return { low: Math.round(Math.max(m.max, estimate - half)), high: Math.round(estimate + half) };
}

/**
 * The skewness g1 of the `draws` contributions: the kind's memory, and 0 for each draw of
 * another kind (which adds (0 - shift)^k to the shifted sums).
 */
function skewness(m: MemoryMoments, draws: number): number {
  const others = draws - m.count;
  const k = -m.shift;
  const mean = (m.d1 + others * k) / draws;
  const e2 = (m.d2 + others * k * k) / draws;
  const e3 = (m.d3 + others * k * k * k) / draws;
  const m2 = e2 - mean * mean;
  if (m2 <= 0) return 0;
  return (e3 - 3 * mean * e2 + 2 * mean * mean * mean) / m2 ** 1.5;
}

/**
 * How far the server's dataset may exceed a sampled interval's top before the keys the
 * sample never drew are taken to hold the difference. The sum of MEMORY USAGE runs some
 * 20-30 bytes a key above INFO's used_memory_dataset (MEMORY USAGE counts the dict entry,
 * the dataset leaves it in the overhead), but allocator rounding of listpacks and
 * MEMORY USAGE's element sampling can put it a few percent below.
 */
export const SERVER_SLACK = 1.1;
/**
 * And by this much whatever the DB's size: the dataset of a server holding one key reads
 * some 40-90 KiB (allocations INFO counts neither as overhead nor as keys), a few hundred
 * KiB with a few busy clients.
 */
export const SERVER_SLACK_BYTES = 2 ** 20;

const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;

/**
 * A sampled total checked against what the server holds (INFO used_memory_dataset, of
 * this DB alone): a few huge keys the draws missed leave the interval well below it, and
 * no figure of the draws can tell (they look like a light-tailed DB). Then the interval
 * is withdrawn, saying why. Without the server's figure the interval stands as it is.
 */
export function checkAgainstServer(i: MemoryInterval, dataset: number | undefined): MemoryInterval {
  if (dataset === undefined || 'notEstimable' in i || dataset <= i.high * SERVER_SLACK + SERVER_SLACK_BYTES) return i;
  return {
    notEstimable:
      `the server holds ${mib(dataset)} of data (INFO used_memory_dataset), more than this estimate allows (at most ${mib(i.high)}): ` +
      'keys the sample did not draw, likely a few big ones, hold the rest; run a census for this figure',
  };
}

/** A kind's interval when the total's was withdrawn for memory the sample missed: it may be this kind's. */
export function missedByTheSample(i: MemoryInterval): MemoryInterval {
  if ('notEstimable' in i) return i;
  return { notEstimable: 'the sample missed memory the server holds (see the total), and it may be of this kind; run a census for this figure' };
}
