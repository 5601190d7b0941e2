import { describe, expect, it } from 'vitest';
import { MAX_CHILDREN, NAMESPACE_MAX_DEPTH, PrefixTree } from './namespaces';

function treeOf(keys: [string | Buffer, number][]): PrefixTree {
  const t = new PrefixTree();
  for (const [k, mem] of keys) t.add(Buffer.isBuffer(k) ? k : Buffer.from(k), mem);
  return t;
}

describe('key namespaces', () => {
  it('counts keys and memory per prefix, parent before children, biggest first', () => {
    const t = treeOf([
      ['user:1:name', 10],
      ['user:1:mail', 10],
      ['user:session:a', 5],
      ['user:session:b', 5],
      ['user:session:c', 5],
      ['cart:9', 100],
      ['cart:8', 100],
      ['plain', 1],
    ]);
    const { rows } = t.rows(8);
    expect(rows.map((r) => [r.prefix, r.parent, r.depth, r.count, r.memory])).toEqual([
      ['user:', '', 1, 5, 35],
      ['user:session:', 'user:', 2, 3, 15],
      ['user:1:', 'user:', 2, 2, 20],
      ['cart:', '', 1, 2, 200],
    ]);
    expect(rows[0]?.percent).toBeCloseTo(62.5);
  });

  it(`stops at depth ${NAMESPACE_MAX_DEPTH}`, () => {
    const t = treeOf([
      ['a:b:c:d:e:f:1', 1],
      ['a:b:c:d:e:f:2', 1],
    ]);
    const { rows } = t.rows(2);
    expect(rows.map((r) => r.prefix)).toEqual(['a:', 'a:b:', 'a:b:c:', 'a:b:c:d:']);
    expect(Math.max(...rows.map((r) => r.depth))).toBe(NAMESPACE_MAX_DEPTH);
  });

  it('lists at most maxRows prefixes, the biggest, each with its parent, and says what it left out', () => {
    const keys: [string, number][] = [];
    for (let ns = 0; ns < 30; ns++) for (let i = 0; i <= ns; i++) keys.push([`ns${ns}:sub:${i}`, 1]);
    const { rows, warnings } = treeOf(keys).rows(keys.length, 10);
    expect(rows).toHaveLength(10);
    const listed = new Set(rows.map((r) => r.prefix));
    for (const r of rows) if (r.parent !== '') expect(listed.has(r.parent)).toBe(true);
    // The biggest namespaces (ns29, ns28, …) and their sub-prefix, which has as many keys.
    expect(rows.slice(0, 4).map((r) => r.prefix)).toEqual(['ns29:', 'ns29:sub:', 'ns28:', 'ns28:sub:']);
    expect(warnings.join('\n')).toMatch(/smaller ones are not/);
  });

  it('folds id-like segments instead of growing a node per id, and warns', () => {
    const keys: [string, number][] = [];
    for (let i = 0; i < MAX_CHILDREN * 3; i++) keys.push([`user:${i}:profile`, 1]);
    for (let i = 0; i < 50; i++) keys.push([`user:settings:${i}`, 1]);
    const { rows, warnings } = treeOf(keys).rows(keys.length);
    // user: holds every key; no prefix per id is listed; the real sub-namespace is.
    expect(rows.find((r) => r.prefix === 'user:')?.count).toBe(keys.length);
    expect(rows.map((r) => r.prefix)).toEqual(['user:', 'user:settings:']);
    expect(warnings.join('\n')).toMatch(/more than 512 distinct prefixes under "user:"/);
  });

  it('escapes binary prefixes like key names and keeps parent links matching', () => {
    const a = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(':x"y\n:1')]);
    const b = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(':x"y\n:2')]);
    const { rows } = treeOf([
      [a, 1],
      [b, 1],
    ]).rows(2);
    expect(rows.map((r) => [r.prefix, r.parent])).toEqual([
      ['\\xff\\xfe:', ''],
      ['\\xff\\xfe:x\\"y\\n:', '\\xff\\xfe:'],
    ]);
  });

  it('is empty for keys without a colon, and for no keys at all', () => {
    expect(treeOf([['plain', 1]]).rows(1).rows).toEqual([]);
    expect(new PrefixTree().rows(0)).toEqual({ rows: [], warnings: [] });
  });
});
