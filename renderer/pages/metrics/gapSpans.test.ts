import { describe, expect, it } from 'vitest';
import { gapCaption, gapSpans, labelledMarks, restartMarks } from './gapSpans';
import type { NodePoint } from './timeSeries';

const up = (t: number): NodePoint => ({ t, ops: 1, mem: 1, clients: 1, netIn: 1, netOut: 1, lag: null });
const gap = (t: number, cause: 'down' | 'slow' | 'unrecorded'): NodePoint => ({
  t,
  ops: null,
  mem: null,
  clients: null,
  netIn: null,
  netOut: null,
  lag: null,
  gap: cause,
});

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
    expect(gapCaption(gapSpans(series, 0, 10_000))).toBe('red: a node was unreachable · grey: not recorded');
    // Outside the window: nothing; a window without gaps says so.
    expect(gapSpans(series, 9_500, 10_000)).toEqual([]);
    expect(gapCaption([])).toBe('no gaps');
  });

  it('runs a node still down to the end of the window', () => {
    const series = new Map([['a:1', [up(0), gap(1000, 'down'), gap(2000, 'down')]]]);
    expect(gapSpans(series, 0, 5_000)).toEqual([{ from: 1000, to: 5_000, cause: 'down', nodes: ['a:1'] }]);
  });

  it('runs a slow node apart from a down one, and names both in the caption', () => {
    const series = new Map([
      ['a:1', [up(0), gap(1000, 'slow'), gap(2000, 'slow'), up(3000)]],
      ['b:2', [up(0), gap(1000, 'down'), up(2000)]],
    ]);
    expect(gapSpans(series, 0, 4000)).toEqual([
      { from: 1000, to: 2000, cause: 'down', nodes: ['b:2'] },
      { from: 1000, to: 3000, cause: 'slow', nodes: ['a:1'] },
    ]);
    expect(gapCaption(gapSpans(series, 0, 4000))).toBe('red: a node was unreachable · amber: a node was slow to answer');
  });
});

describe('restartMarks', () => {
  it('marks each restart in the window once, nodes restarted at one poll together', () => {
    const series = new Map([
      ['a:1', [up(0), { ...up(1000), restarted: true as const }, up(2000)]],
      ['b:2', [up(0), { ...up(1000), restarted: true as const }, { ...up(5000), restarted: true as const }]],
    ]);
    expect(restartMarks(series, 0, 4000)).toEqual([{ t: 1000, nodes: ['a:1', 'b:2'] }]);
  });
});

describe('labelledMarks', () => {
  it('words a mark only when it is far enough from the last worded one, so a flapping node prints no stacked labels', () => {
    const marks = [0, 2_000, 4_000, 9_000, 10_000, 30_000].map((t) => ({ t, nodes: ['a:1'] }));
    expect([...labelledMarks(marks, 5_000)]).toEqual([0, 9_000, 30_000]);
    expect([...labelledMarks(marks, 0)]).toEqual(marks.map((m) => m.t));
  });
});
