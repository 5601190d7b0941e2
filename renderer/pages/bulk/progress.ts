import type { LoadEvent } from '../../../app/schemas/bulk';

export type ProgressEvent = Extract<LoadEvent, { kind: 'progress' }>;

/** Share of the input read, 0..1; undefined when the size is unknown (a stream). */
export function fractionOf(p: Pick<ProgressEvent, 'bytesRead' | 'bytesTotal'> | undefined): number | undefined {
  if (p?.bytesTotal === undefined || p.bytesTotal <= 0) return undefined;
  return Math.min(1, Math.max(0, p.bytesRead / p.bytesTotal));
}

/**
 * Seconds left: the server's estimate when it sends one, else a straight line
 * through the bytes read since loading started.
 */
export function etaOf(p: ProgressEvent | undefined, loadingSince: number | undefined): number | undefined {
  if (p === undefined) return undefined;
  if (p.etaSeconds !== undefined) return p.etaSeconds;
  const f = fractionOf(p);
  if (f === undefined || f <= 0 || loadingSince === undefined) return undefined;
  const elapsed = (p.at - loadingSince) / 1000;
  if (elapsed <= 0) return undefined;
  return (elapsed * (1 - f)) / f;
}

export interface OpsPoint {
  /** Epoch ms of the progress event. */
  t: number;
  ops: number;
}

/** The ops/s chart's data: bounded, and thinned out as it grows so it always spans the whole load. */
export interface OpsSeries {
  points: OpsPoint[];
  /** Points closer than this to the previous one are skipped; doubles on every thinning. */
  spacingMs: number;
}

export const EMPTY_SERIES: OpsSeries = { points: [], spacingMs: 0 };

/**
 * Append a point, never holding more than `max`. When full, every other point is
 * dropped and the spacing doubles, so a two-hour load is drawn end to end with
 * the same memory as a ten-second one. A repeated or older point (a replay) is ignored.
 */
export function appendOps(series: OpsSeries, p: OpsPoint, max: number): OpsSeries {
  const last = series.points.at(-1);
  if (last !== undefined && (p.t <= last.t || p.t - last.t < series.spacingMs)) return series;
  let { points, spacingMs } = series;
  if (points.length >= max) {
    points = points.filter((_, i) => i % 2 === 1);
    const first = points[0];
    const kept = points.at(-1);
    const gap = first !== undefined && kept !== undefined && points.length > 1 ? (kept.t - first.t) / (points.length - 1) : 0;
    spacingMs = Math.max(spacingMs * 2, Math.round(gap));
  }
  return { points: [...points, p], spacingMs };
}
