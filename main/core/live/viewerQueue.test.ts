import { describe, expect, it } from 'vitest';
import { ViewerQueue } from './viewerQueue';

const free = () => false;
const busy = () => true;

describe('ViewerQueue', () => {
  it('hands over what arrived, at most maxItems a tick, and counts the rest as dropped', () => {
    const q = new ViewerQueue<number>({ maxItems: 3 });
    for (let i = 0; i < 5; i++) q.offer(i);
    expect(q.take(free)).toEqual({ items: [0, 1, 2], offered: 5, delivered: 3, dropped: 2 });
    expect(q.take(free)).toBeUndefined();
  });

  it('drops and counts a tick held while the viewer is congested, then reports the counts', () => {
    const q = new ViewerQueue<number>({ maxItems: 10 });
    q.offer(1);
    q.offer(2);
    expect(q.take(busy)).toBeUndefined();
    q.offer(3);
    const b = q.take(free);
    expect(b).toEqual({ items: [3], offered: 3, delivered: 1, dropped: 2 });
    expect(b!.delivered + b!.dropped).toBe(b!.offered);
  });

  it('reports counts that changed even when no item is left to send', () => {
    const q = new ViewerQueue<number>({ maxItems: 1 });
    q.offer(1);
    q.offer(2);
    q.take(busy);
    expect(q.take(free)).toEqual({ items: [], offered: 2, delivered: 0, dropped: 2 });
  });

  it('bounds the bytes held: past maxBytes items are dropped, but one item alone is always taken', () => {
    const q = new ViewerQueue<string>({ maxItems: 100, maxBytes: 10 }, (s) => s.length);
    q.offer('x'.repeat(50));
    q.offer('y');
    expect(q.bytes).toBe(50);
    expect(q.take(free)).toEqual({ items: ['x'.repeat(50)], offered: 2, delivered: 1, dropped: 1 });
    q.offer('abcd');
    q.offer('efgh');
    q.offer('ijkl');
    expect(q.take(free)?.items).toEqual(['abcd', 'efgh']);
  });
});
