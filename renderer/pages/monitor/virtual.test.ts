import { describe, expect, it } from 'vitest';
import { Ring } from '../../lib/ring';
import { anchorAt, maxTop, topFor, visibleRange } from './virtual';

const H = 20;

describe('visibleRange', () => {
  it('covers the viewport plus the overscan, within the rows there are', () => {
    expect(visibleRange(0, 400, H, 10_000, 5)).toEqual({ start: 0, end: 26 });
    expect(visibleRange(1000, 400, H, 10_000, 5)).toEqual({ start: 45, end: 76 });
    expect(visibleRange(199_600, 400, H, 10_000, 5)).toEqual({ start: 9975, end: 10_000 });
    expect(visibleRange(0, 400, H, 0, 5)).toEqual({ start: 0, end: 0 });
  });

  it('puts a bounded number of rows in the DOM however many are buffered', () => {
    const { start, end } = visibleRange(123_456, 480, H, 10_000);
    expect(end - start).toBeLessThanOrEqual(40);
  });
});

describe('anchors', () => {
  it('keeps the same row at the top while rows are evicted above it', () => {
    const ring = new Ring<{ seq: number }>(100);
    for (let seq = 0; seq < 100; seq++) ring.push({ seq });
    const anchor = anchorAt(ring, 50 * H + 7, H);
    expect(anchor).toEqual({ seq: 50, offset: 7 });
    for (let seq = 100; seq < 130; seq++) ring.push({ seq });
    expect(topFor(ring, anchor!, H)).toBe(20 * H + 7);
  });

  it('stops at the top once the anchored row is gone', () => {
    const ring = new Ring<{ seq: number }>(10);
    for (let seq = 0; seq < 10; seq++) ring.push({ seq });
    const anchor = anchorAt(ring, 2 * H, H)!;
    for (let seq = 10; seq < 20; seq++) ring.push({ seq });
    expect(topFor(ring, anchor, H)).toBe(0);
  });

  it('finds the anchor in a filtered view, whose seqs are not consecutive', () => {
    const view = { length: 4, at: (i: number) => [{ seq: 3 }, { seq: 9 }, { seq: 40 }, { seq: 41 }][i] };
    expect(topFor(view, { seq: 40, offset: 3 }, H)).toBe(2 * H + 3);
    expect(topFor(view, { seq: 10, offset: 3 }, H)).toBe(2 * H);
  });

  it('has no anchor in an empty list, and a bottom that never goes negative', () => {
    expect(anchorAt({ length: 0, at: () => undefined }, 0, H)).toBeUndefined();
    expect(maxTop(3, H, 400)).toBe(0);
    expect(maxTop(100, H, 400)).toBe(1600);
  });
});
