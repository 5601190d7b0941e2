import { describe, expect, it } from 'vitest';
import { REPLY_DISPLAY_ELEMENTS, type ReplyNode } from '../../../app/schemas/console';
import { moreText } from './cutText';
import { aggregateSummary, foldableNodes, replyRows } from './replyRows';

const bulk = (v: string): ReplyNode => ({ t: 'bulk', v, bytes: v.length });
// XRANGE's shape: entries of [id, [field, value…]].
const XRANGE: ReplyNode = {
  t: 'array',
  total: 2,
  items: [
    { t: 'array', total: 2, items: [bulk('1-0'), { t: 'array', total: 2, items: [bulk('f'), bulk('v')] }] },
    { t: 'array', total: 2, items: [bulk('2-0'), { t: 'array', total: 2, items: [bulk('g'), bulk('w')] }] },
  ],
};

const shape = (rows: ReturnType<typeof replyRows>) =>
  rows.map((r) => (r.kind === 'more' ? `${r.depth}:more ${r.more}` : `${r.depth}:${r.label ?? ''}${r.folded ? '+' : ''}`));

describe('replyRows', () => {
  it("draws a nested reply line by line with redis-cli's numbering, depth by depth", () => {
    expect(shape(replyRows(XRANGE, new Set()))).toEqual(['0:', '1:1)', '2:1)', '2:2)', '3:1)', '3:2)', '1:2)', '2:1)', '2:2)', '3:1)', '3:2)']);
  });

  it('hides what a folded aggregate holds, and only that', () => {
    const first = (XRANGE as { items: ReplyNode[] }).items[0] as ReplyNode;
    expect(shape(replyRows(XRANGE, new Set([first])))).toEqual(['0:', '1:1)+', '1:2)', '2:1)', '2:2)', '3:1)', '3:2)']);
    expect(foldableNodes(XRANGE)).toHaveLength(4);
    expect(foldableNodes(XRANGE)[0]).toBe(first);
  });

  it('numbers map entries with # and carries each key beside its value', () => {
    const map: ReplyNode = {
      t: 'map',
      total: 2,
      entries: [
        [bulk('a'), { t: 'integer', v: '1' }],
        [bulk('b'), { t: 'set', total: 1, items: [bulk('x')] }],
      ],
    };
    const rows = replyRows(map, new Set());
    expect(shape(rows)).toEqual(['0:', '1:1#', '1:2#', '2:1)']);
    expect(rows[2]).toMatchObject({ mapKey: bulk('b'), foldable: true });
    // A flat one (HGETALL of a big hash, cut): the same lines, and what was left out.
    const flat: ReplyNode = {
      t: 'map',
      total: 5,
      entries: [
        [bulk('a'), bulk('1')],
        [bulk('b'), bulk('2')],
      ],
    };
    const flatRows = replyRows(flat, new Set());
    expect(shape(flatRows)).toEqual(['0:', '1:1#', '1:2#', '1:more 3']);
    expect(flatRows[2]).toMatchObject({ mapKey: bulk('b'), node: bulk('2') });
  });

  it('ends a cut aggregate with what was left out, and says so in its summary', () => {
    const items = Array.from({ length: REPLY_DISPLAY_ELEMENTS }, (_, i) => bulk(String(i)));
    const cut: ReplyNode = { t: 'array', total: 1_000_000, items };
    const rows = replyRows(cut, new Set());
    expect(rows).toHaveLength(REPLY_DISPLAY_ELEMENTS + 2);
    expect(rows.at(-1)).toMatchObject({ kind: 'more', more: 1_000_000 - REPLY_DISPLAY_ELEMENTS });
    expect(aggregateSummary(cut as Extract<ReplyNode, { total: number }>)).toBe('array · 1,000,000 elements (20,000 shown)');
    expect(moreText(980_000)).toBe('… 980,000 more not shown');
  });

  it('draws a reply nested far deeper than the JS stack would allow a recursion, each line with its own key', () => {
    let deep: ReplyNode = bulk('bottom');
    for (let i = 0; i < REPLY_DISPLAY_ELEMENTS; i++) deep = { t: 'array', total: 1, items: [deep] };
    const rows = replyRows(deep, new Set());
    expect(rows).toHaveLength(REPLY_DISPLAY_ELEMENTS + 1);
    expect(new Set(rows.map((r) => r.key)).size).toBe(rows.length);
  });
});
