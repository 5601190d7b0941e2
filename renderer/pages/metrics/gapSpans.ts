import type { GapCause, SeriesStore } from './timeSeries';

/** A stretch of time with no values, and why. */
export interface GapSpan {
  from: number;
  to: number;
  cause: GapCause;
  /** The nodes it concerns (every node for an unrecorded stretch: nobody polled). */
  nodes: string[];
}

/**
 * The gaps in the charts' window, by cause: a node down (polled, unreachable) or slow
 * (polled, no answer in time on an open connection) from its first such point to its next
 * point, or nothing recorded from a marker to the next point (the profile was neither
 * watched nor recorded). Overlapping spans of one cause merge.
 */
export function gapSpans(series: SeriesStore, from: number, to: number): GapSpan[] {
  const raw: GapSpan[] = [];
  for (const [address, points] of series) {
    for (let i = 0; i < points.length; i++) {
      const p = points[i];
      if (p?.gap === undefined) continue;
      let j = i;
      while (points[j + 1]?.gap === p.gap && p.gap !== 'unrecorded') j++;
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

const CAPTION: Record<GapCause, string> = {
  down: 'red: a node was unreachable',
  slow: 'amber: a node was slow to answer',
  unrecorded: 'grey: not recorded',
};

/** The caption's word on gaps: only the causes the window holds, in a fixed order. */
export function gapCaption(spans: readonly GapSpan[]): string {
  const causes = (['down', 'slow', 'unrecorded'] as const).filter((c) => spans.some((s) => s.cause === c));
  return causes.length === 0 ? 'no gaps' : causes.map((c) => CAPTION[c]).join(' · ');
}

/** A node that answered from a new server run inside the window. */
export interface RestartMark {
  t: number;
  nodes: string[];
}

/** The restarts in the charts' window, nodes restarted at the same poll as one mark. */
export function restartMarks(series: SeriesStore, from: number, to: number): RestartMark[] {
  const byT = new Map<number, string[]>();
  for (const [address, points] of series) {
    for (const p of points) if (p.restarted === true && p.t >= from && p.t <= to) byT.set(p.t, [...(byT.get(p.t) ?? []), address]);
  }
  return [...byT].sort((a, b) => a[0] - b[0]).map(([t, nodes]) => ({ t, nodes }));
}

/**
 * The marks that may print their word: a label sits left of its line, so one closer than
 * `minGapMs` after the last labelled mark would print over it ("restartedrestarted" when a
 * node flaps); such a mark keeps its line and drops its word.
 */
export function labelledMarks(marks: readonly RestartMark[], minGapMs: number): Set<number> {
  const out = new Set<number>();
  let last = -Infinity;
  for (const m of marks) {
    if (m.t - last < minGapMs) continue;
    out.add(m.t);
    last = m.t;
  }
  return out;
}
