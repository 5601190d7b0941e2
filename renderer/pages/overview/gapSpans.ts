import type { SeriesStore } from './timeSeries';

/** A stretch of time with no values, and why. */
export interface GapSpan {
  from: number;
  to: number;
  cause: 'down' | 'unrecorded';
  /** The nodes it concerns (every node for an unrecorded stretch: nobody polled). */
  nodes: string[];
}

/**
 * The gaps in the charts' window, by cause: a node down (polled, no answer) from its first
 * down point to its next point, or nothing recorded from a marker to the next point (the
 * profile was neither watched nor recorded). Overlapping spans of one cause merge.
 */
export function gapSpans(series: SeriesStore, from: number, to: number): GapSpan[] {
  const raw: GapSpan[] = [];
  for (const [address, points] of series) {
    for (let i = 0; i < points.length; i++) {
      const p = points[i];
      if (p?.gap === undefined) continue;
      let j = i;
      while (points[j + 1]?.gap === p.gap && p.gap === 'down') j++;
      const end = points[j + 1]?.t ?? to;
      if (end >= from && p.t <= to) raw.push({ from: Math.max(p.t, from), to: Math.min(end, to), cause: p.gap, nodes: [address] });
      i = j;
    }
  }
  raw.sort((a, b) => (a.cause === b.cause ? a.from - b.from : a.cause < b.cause ? -1 : 1));
  const out: GapSpan[] = [];
  for (const g of raw) {
    const last = out.at(-1);
    if (last !== undefined && last.cause === g.cause && g.from <= last.to) {
      last.to = Math.max(last.to, g.to);
      for (const n of g.nodes) if (!last.nodes.includes(n)) last.nodes.push(n);
    } else out.push({ ...g, nodes: [...g.nodes] });
  }
  return out;
}

/** The caption's word on gaps: only the causes the window holds. */
export function gapCaption(spans: readonly GapSpan[]): string {
  const down = spans.some((s) => s.cause === 'down');
  const unrecorded = spans.some((s) => s.cause === 'unrecorded');
  if (down && unrecorded) return 'red: a node was down · grey: not recorded';
  if (down) return 'red: a node was down';
  if (unrecorded) return 'grey: not recorded';
  return 'no gaps';
}
