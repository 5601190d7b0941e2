/** mulberry32: a small, fast PRNG whose whole state is one 32-bit word, so a seed fixes every draw. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** Index drawn from cumulative weights (last entry = total). */
export function pick(cumulative: readonly number[], r: number): number {
  const x = r * (cumulative[cumulative.length - 1] as number);
  let i = 0;
  while (i < cumulative.length - 1 && x >= (cumulative[i] as number)) i++;
  return i;
}

export function cumulate(weights: readonly number[]): number[] {
  let sum = 0;
  return weights.map((w) => (sum += w));
}
