import { describe, expect, it } from 'vitest';
import { gapCaption, gapSpans } from './gapSpans';
import type { NodePoint } from './timeSeries';

const up = (t: number): NodePoint => ({ t, ops: 1, mem: 1, clients: 1, netIn: 1, netOut: 1, lag: null });
const gap = (t: number, cause: 'down' | 'unrecorded'): NodePoint => ({ t, ops: null, mem: null, clients: null, netIn: null, netOut: null, lag: null, gap: cause });

describe('gapSpans', () => {
  it('runs a node down from its first down poll to its next answer, and a stretch not recorded from its marker to the next poll', () => {
    const series = new Map([
      ['a:1', [up(0), gap(1000, 'down'), gap(2000, 'down'), up(3000), gap(4000, 'unrecorded'), up(9000)]],
      ['b:2', [up(0), up(1000), up(2000), up(3000), gap(4000, 'unrecorded'), up(9000)]],
    ]);
    expect(gapSpans(series, 0, 10_000)).toEqual([
      { from: 1000, to: 3000, cause: 'down', nodes: ['a:1'] },
      { from: 4000, to: 9000, cause: 'unrecorded', nodes: ['a:1', 'b:2'] },
    ]);
    expect(gapCaption(gapSpans(series, 0, 10_000))).toBe('red: a node was down · grey: not recorded');
    // Outside the window: nothing; a window without gaps says so.
    expect(gapSpans(series, 9_500, 10_000)).toEqual([]);
    expect(gapCaption([])).toBe('no gaps');
  });

  it('runs a node still down to the end of the window', () => {
    const series = new Map([['a:1', [up(0), gap(1000, 'down'), gap(2000, 'down')]]]);
    expect(gapSpans(series, 0, 5_000)).toEqual([{ from: 1000, to: 5_000, cause: 'down', nodes: ['a:1'] }]);
  });
});
