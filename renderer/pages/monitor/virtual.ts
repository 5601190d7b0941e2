import type { RowSource } from '../../lib/ring';

/** Where a scrolled-up list is: the row at its top edge, by seq, and how far into it. */
export interface Anchor {
  seq: number;
  offset: number;
}

/** Rows [start, end) to put in the DOM for a viewport at `top`, with `overscan` rows either side. */
export function visibleRange(top: number, viewport: number, rowHeight: number, count: number, overscan = 6): { start: number; end: number } {
  const first = Math.floor(Math.max(0, top) / rowHeight);
  const start = Math.max(0, first - overscan);
  const end = Math.min(count, first + Math.ceil(viewport / rowHeight) + 1 + overscan);
  return { start, end: Math.max(start, end) };
}

export function maxTop(count: number, rowHeight: number, viewport: number): number {
  return Math.max(0, count * rowHeight - viewport);
}

export function anchorAt(view: RowSource<{ seq: number }>, top: number, rowHeight: number): Anchor | undefined {
  const i = Math.floor(Math.max(0, top) / rowHeight);
  const row = view.at(Math.min(i, view.length - 1));
  return row === undefined ? undefined : { seq: row.seq, offset: top - i * rowHeight };
}

/**
 * The scroll offset that puts the anchored row back at the top, after rows were
 * added below and evicted above. Once the row itself is evicted, the oldest row
 * left takes its place (the list stops at the top).
 */
export function topFor(view: RowSource<{ seq: number }>, anchor: Anchor, rowHeight: number): number {
  let lo = 0;
  let hi = view.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((view.at(mid)?.seq ?? Infinity) < anchor.seq) lo = mid + 1;
    else hi = mid;
  }
  const exact = view.at(lo)?.seq === anchor.seq;
  return lo * rowHeight + (exact ? anchor.offset : 0);
}
