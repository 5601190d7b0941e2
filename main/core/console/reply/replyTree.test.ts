import { describe, expect, it } from 'vitest';
import { ReplyTreeBuilder, type TreeBounds } from './replyTree';
import { RespStreamParser } from './respStreamParser';

const LOOSE: TreeBounds = { bytes: 1000, elements: 1000, stringBytes: 1000, depth: 10 };

function build(resp: string, bounds: Partial<TreeBounds>): ReplyTreeBuilder {
  const tree = new ReplyTreeBuilder({ ...LOOSE, ...bounds });
  const parser = new RespStreamParser(tree);
  parser.feed(Buffer.from(resp, 'latin1'));
  expect(parser.complete).toBe(true);
  return tree;
}
const bulks = (...vs: string[]): string => vs.map((v) => `$${v.length}\r\n${v}\r\n`).join('');
const ints = (n: number): string => Array.from({ length: n }, (_, i) => `:${i}\r\n`).join('');

describe('ReplyTreeBuilder', () => {
  it('keeps a reply within the bounds whole, uncut, with its totals', () => {
    const tree = build(`*2\r\n${bulks('ab')}%1\r\n+k\r\n#t\r\n`, {});
    expect(tree.root).toEqual({
      t: 'array',
      total: 2,
      items: [
        { t: 'bulk', v: 'ab', bytes: 2 },
        {
          t: 'map',
          total: 1,
          entries: [
            [
              { t: 'simple', v: 'k' },
              { t: 'boolean', v: true },
            ],
          ],
        },
      ],
    });
    expect([tree.cut, tree.totalElements, tree.totalBytes]).toEqual([false, 5, 4]);
  });

  it('cuts at the element bound (the aggregate counts one), keeping the real totals', () => {
    const tree = build(`*10\r\n${ints(10)}`, { elements: 5 });
    expect(tree.root).toEqual({ t: 'array', total: 10, items: [0, 1, 2, 3].map((i) => ({ t: 'integer', v: String(i) })) });
    expect([tree.cut, tree.totalElements, tree.totalBytes]).toEqual([true, 11, 10]);
  });

  it('cuts a map between entries, never between a key and its value', () => {
    const tree = build(`%3\r\n${bulks('a', '1', 'b', '2', 'c', '3')}`, { elements: 4 });
    expect(tree.root).toMatchObject({ t: 'map', total: 3, entries: [[{ v: 'a' }, { v: '1' }]] });
    expect(tree.totalElements).toBe(7);
  });

  it('cuts at the byte bound, shortening the string that passes it, then shows nothing more', () => {
    const tree = build(`*4\r\n${bulks('aaaa', 'bbbb', 'cccc', 'd')}`, { bytes: 10 });
    expect(tree.root).toEqual({
      t: 'array',
      total: 4,
      items: [
        { t: 'bulk', v: 'aaaa', bytes: 4 },
        { t: 'bulk', v: 'bbbb', bytes: 4 },
        { t: 'bulk', v: 'cc', bytes: 4, cut: true },
      ],
    });
    expect([tree.cut, tree.totalBytes]).toEqual([true, 13]);
  });

  it('shortens a string past the string bound but goes on showing what follows; a character straddling it stays whole', () => {
    const tree = build(`*3\r\n${bulks('x'.repeat(10))}$3\r\n\xc3\xa9z\r\n${bulks('y')}`, { stringBytes: 4 });
    expect(tree.root).toEqual({
      t: 'array',
      total: 3,
      items: [
        { t: 'bulk', v: 'xxxx', bytes: 10, cut: true },
        { t: 'bulk', v: 'éz', bytes: 3 },
        { t: 'bulk', v: 'y', bytes: 1 },
      ],
    });
    // "aé" is 3 bytes: a bound of 2 falls inside é, shown whole.
    const straddle = build(`$3\r\na\xc3\xa9\r\n`, { stringBytes: 2 });
    expect(straddle.root).toEqual({ t: 'bulk', v: 'aé', bytes: 3 });
    expect(straddle.cut).toBe(false);
  });

  it('gives a shown key its value as a stub once the bounds are passed', () => {
    const tree = build(`%2\r\n${bulks('kkkk')}*3\r\n${ints(3)}${bulks('k2', 'v2')}`, { bytes: 4 });
    expect(tree.root).toEqual({
      t: 'map',
      total: 2,
      entries: [
        [
          { t: 'bulk', v: 'kkkk', bytes: 4 },
          { t: 'array', items: [], total: 3 },
        ],
      ],
    });
    expect(tree.cut).toBe(true);
  });

  it('shows aggregates past the depth bound empty, with their count', () => {
    const tree = build('*1\r\n*1\r\n*2\r\n:1\r\n:2\r\n', { depth: 2 });
    expect(tree.root).toEqual({ t: 'array', total: 1, items: [{ t: 'array', total: 1, items: [{ t: 'array', total: 2, items: [] }] }] });
    expect([tree.cut, tree.totalElements]).toEqual([true, 5]);
  });

  it('keeps a top-level attribute apart and drops nested ones, counting neither', () => {
    const tree = build('|1\r\n+ttl\r\n:5\r\n*2\r\n:1\r\n|1\r\n+a\r\n+b\r\n:2\r\n', {});
    expect(tree.attribute).toEqual({
      t: 'attribute',
      total: 1,
      entries: [
        [
          { t: 'simple', v: 'ttl' },
          { t: 'integer', v: '5' },
        ],
      ],
    });
    expect(tree.root).toEqual({
      t: 'array',
      total: 2,
      items: [
        { t: 'integer', v: '1' },
        { t: 'integer', v: '2' },
      ],
    });
    expect(tree.totalElements).toBe(3);
  });

  it('escapes strings as the app does everywhere', () => {
    const tree = build(`*3\r\n$6\r\n"\\\n\x00\xff\xe2\r\n+a\x01\r\n!4\r\nE"\x02x\r\n`, {});
    expect(tree.root).toEqual({
      t: 'array',
      total: 3,
      items: [
        { t: 'bulk', v: '\\"\\\\\\n\\x00\\xff\\xe2', bytes: 6 },
        { t: 'simple', v: 'a\\x01' },
        { t: 'error', v: 'E"\\x02x' },
      ],
    });
  });
});
