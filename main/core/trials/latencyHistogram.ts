import type { Percentiles } from '../../../app/schemas/trials';

/** Linear buckets per power of two: values are kept to within 1/SUB (~1.6%). */
const SUB = 64;
const HALF = SUB / 2;
/** Microseconds: 2^32 µs is over an hour, far beyond any request worth timing. */
const MAX_VALUE = 2 ** 32 - 1;
const BUCKETS = SUB + 32 * HALF;

/**
 * An HDR-like histogram of latencies in microseconds: exact below 64 µs, then
 * 32 linear buckets per power of two. Memory is fixed (~1,100 counters) however
 * many requests are recorded, and any percentile is off by at most one bucket.
 */
export class LatencyHistogram {
  private readonly counts = new Float64Array(BUCKETS);
  private total = 0;
  private maxUs = 0;

  recordMs(ms: number): void {
    this.record(Math.round(ms * 1000));
  }

  record(us: number): void {
    const v = Math.min(MAX_VALUE, Math.max(0, us));
    this.counts[indexOf(v)]! += 1;
    this.total += 1;
    if (v > this.maxUs) this.maxUs = v;
  }

  get count(): number {
    return this.total;
  }

  /**
   * The value at percentile `p` (0..100), in µs: the highest value of the bucket
   * the p-th request fell in (HdrHistogram's convention), never above the maximum.
   */
  percentile(p: number): number {
    if (this.total === 0) return 0;
    const rank = Math.max(1, Math.ceil((p / 100) * this.total));
    let seen = 0;
    for (let i = 0; i < BUCKETS; i++) {
      seen += this.counts[i]!;
      if (seen >= rank) return Math.min(highestOf(i), this.maxUs);
    }
    return this.maxUs;
  }

  percentiles(): Percentiles {
    const ms = (us: number) => us / 1000;
    return {
      p50Ms: ms(this.percentile(50)),
      p95Ms: ms(this.percentile(95)),
      p99Ms: ms(this.percentile(99)),
      maxMs: ms(this.maxUs),
    };
  }
}

function indexOf(v: number): number {
  if (v < SUB) return v;
  const shift = 31 - Math.clz32(v) - 5; // v >>> shift lands in [32, 63]
  return SUB + (shift - 1) * HALF + ((v >>> shift) - HALF);
}

function highestOf(i: number): number {
  if (i < SUB) return i;
  const shift = Math.floor((i - SUB) / HALF) + 1;
  const top = ((i - SUB) % HALF) + HALF;
  return (top + 1) * 2 ** shift - 1;
}
