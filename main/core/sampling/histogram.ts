/** Indexes 0 (zeros) to 65 (values up to 2^64): more than any MEMORY USAGE or length can reach. */
const SLOTS = 66;

/**
 * Bucket of a value: 0 for 0, else i where value is in (2^(i-2), 2^(i-1)], so
 * bucket 1 holds 1, bucket 2 holds 2, bucket 3 holds 3-4, bucket 4 holds 5-8…
 */
export function bucketIndex(v: number): number {
  if (v <= 0) return 0;
  if (v <= 1) return 1;
  if (v < 2 ** 31) return 33 - Math.clz32(Math.ceil(v) - 1);
  let j = Math.ceil(Math.log2(v));
  // log2 of a large double can land one off either way.
  if (2 ** j < v) j++;
  if (2 ** (j - 1) >= v) j--;
  return Math.min(SLOTS - 1, j + 1);
}

/** Upper bound (`le`) of bucket i: 0, 1, 2, 4, 8… */
export function bucketBound(i: number): number {
  return i === 0 ? 0 : 2 ** (i - 1);
}

/** Counts per power-of-two bucket; fixed size, so adding a value never allocates. */
export class Pow2Histogram {
  private readonly counts = new Float64Array(SLOTS);

  add(v: number): void {
    const i = bucketIndex(v);
    this.counts[i] = (this.counts[i] as number) + 1;
  }

  /** From the lowest to the highest non-empty bucket, empty ones between included so a chart has no holes. */
  buckets(): { le: number; count: number }[] {
    let lo = 0;
    while (lo < SLOTS && this.counts[lo] === 0) lo++;
    let hi = SLOTS - 1;
    while (hi >= lo && this.counts[hi] === 0) hi--;
    const out: { le: number; count: number }[] = [];
    for (let i = lo; i <= hi; i++) out.push({ le: bucketBound(i), count: this.counts[i] as number });
    return out;
  }
}
