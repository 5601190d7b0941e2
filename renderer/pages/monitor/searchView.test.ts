import { describe, expect, it } from 'vitest';
import { frozen, Ring } from '../../lib/ring';
import type { Row } from './rows';
import { SearchView } from './searchView';

let seq = 0;
const line = (command: string, ...args: string[]): Row => ({
  kind: 'line',
  seq: seq++,
  line: { ts: 0, db: 0, client: '127.0.0.1:1', command, args, moreArgs: 0, truncated: false },
});
const keys = (src: { length: number; at(i: number): Row | undefined }) =>
  Array.from({ length: src.length }, (_, i) => {
    const r = src.at(i);
    return r?.kind === 'line' ? r.line.args[0] : r?.text;
  });

describe('SearchView', () => {
  it('shows the source itself for a blank query', () => {
    const ring = new Ring<Row>(10);
    ring.push(line('GET', 'a'));
    expect(new SearchView(10).view(ring, '  ')).toBe(ring);
  });

  it('keeps the rows containing the query, case-insensitively, and follows new rows', () => {
    seq = 0;
    const ring = new Ring<Row>(10);
    ring.push(line('SET', 'user:1', 'x'));
    ring.push(line('GET', 'order:1'));
    const s = new SearchView(10);
    expect(keys(s.view(ring, 'USER'))).toEqual(['user:1']);
    ring.push(line('GET', 'user:2'));
    ring.push(line('GET', 'other'));
    expect(keys(s.view(ring, 'USER'))).toEqual(['user:1', 'user:2']);
  });

  it('forgets matches the source evicted', () => {
    seq = 0;
    const ring = new Ring<Row>(3);
    const s = new SearchView(3);
    ring.push(line('GET', 'hit:1'));
    ring.push(line('GET', 'miss'));
    expect(keys(s.view(ring, 'hit'))).toEqual(['hit:1']);
    ring.push(line('GET', 'miss'));
    ring.push(line('GET', 'hit:2'));
    ring.push(line('GET', 'miss'));
    expect(keys(s.view(ring, 'hit'))).toEqual(['hit:2']);
  });

  it('catches up when more rows than the buffer holds arrived between refreshes', () => {
    seq = 0;
    const ring = new Ring<Row>(4);
    const s = new SearchView(4);
    ring.push(line('GET', 'k0'));
    expect(s.view(ring, 'k').length).toBe(1);
    for (let i = 1; i <= 10; i++) ring.push(line('GET', `k${i}`));
    expect(keys(s.view(ring, 'k'))).toEqual(['k7', 'k8', 'k9', 'k10']);
  });

  it('starts over for a new query or a new source (the paused copy)', () => {
    seq = 0;
    const ring = new Ring<Row>(10);
    ring.push(line('GET', 'a1'));
    ring.push(line('GET', 'b1'));
    const s = new SearchView(10);
    expect(keys(s.view(ring, 'a'))).toEqual(['a1']);
    expect(keys(s.view(ring, 'b'))).toEqual(['b1']);
    const paused = frozen(ring.toArray());
    ring.push(line('GET', 'b2'));
    expect(keys(s.view(paused, 'b'))).toEqual(['b1']);
  });

  it('finds mark rows by their text', () => {
    seq = 0;
    const ring = new Ring<Row>(10);
    ring.push({ kind: 'mark', seq: seq++, text: '— no lines from 10:00:00 to 10:00:05 (restart) —' });
    expect(keys(new SearchView(10).view(ring, 'restart'))).toHaveLength(1);
  });
});
