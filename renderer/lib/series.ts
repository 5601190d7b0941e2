export interface SeriesPoint {
  /** Epoch ms of the INFO snapshot. */
  t: number;
  ops: number;
  memory: number;
}

/**
 * Append a point, keeping only the last `windowMs` and at most `max` points, so the
 * array stays bounded however long the page is open. A repeated or older timestamp
 * (the same snapshot seen twice) is ignored.
 */
export function appendPoint(
  points: readonly SeriesPoint[],
  p: SeriesPoint,
  windowMs: number,
  max: number,
): SeriesPoint[] {
  const last = points.at(-1);
  if (last !== undefined && p.t <= last.t) return points as SeriesPoint[];
  const from = p.t - windowMs;
  const kept = points.filter((q) => q.t >= from);
  kept.push(p);
  return kept.length > max ? kept.slice(kept.length - max) : kept;
}
