import { describe, expect, it } from 'vitest';
import { KeyIndex } from './keyIndex';

const sep = Buffer.from(':');
const names = (index: KeyIndex, ids: Iterable<number>): string[] => [...ids].map((id) => index.store?.name(id).toString() ?? '?').sort();

function indexOf(keys: string[], budget = 1 << 30, folderBudget?: number): KeyIndex {
  const index = new KeyIndex(sep, budget, folderBudget);
  for (const k of keys) index.add(Buffer.from(k));
  return index;
}

describe('KeyIndex.removeMany', () => {
  it('takes keys out of every count on their paths and their folders, and lets an emptied folder go', () => {
    const index = indexOf(['rate:1:a', 'rate:1:b', 'rate:2:a', 'user:1', 'plain']);
    const ids = [...index.idsUnder(index.root)];
    const byName = new Map(ids.map((id) => [index.store?.name(id).toString(), id]));
    index.removeMany([byName.get('rate:1:a') as number, byName.get('rate:1:b') as number, byName.get('plain') as number]);
    expect(index.root.count).toBe(2);
    expect(index.state.scanned).toBe(2);
    expect(index.root.leafCount).toBe(0);
    const rate = index.folder(Buffer.from('rate:'));
    expect(rate?.count).toBe(1);
    expect(index.folder(Buffer.from('rate:1:'))).toBeUndefined();
    expect([...(rate?.children?.keys() ?? [])]).toEqual(['2']);
    expect(names(index, index.idsUnder(index.root))).toEqual(['rate:2:a', 'user:1']);
    expect(index.changes).toBe(1);
  });

  it("takes out keys counted past the folders' cap from the folder above, as add counted them", () => {
    // Room for a few folders only: later keys count in the deepest folder made, unlisted there.
    const index = indexOf(['a:x:1', 'a:y:1', 'a:z:1', 'a:w:1'], 1 << 30, 400);
    const a = index.folder(Buffer.from('a:'));
    expect(index.state.foldersCapped).toBe(true);
    const unlisted = a?.unlisted ?? 0;
    expect(unlisted).toBeGreaterThan(0);
    const deeper = [...(a?.deeper ?? [])];
    index.removeMany(deeper);
    expect(a?.unlisted).toBe(0);
    expect(a?.count).toBe(4 - unlisted);
    expect(index.root.count).toBe(4 - unlisted);
    expect(names(index, index.idsUnder(index.root))).toHaveLength(4 - unlisted);
  });
});

describe('KeyIndex.add', () => {
  /** Each key's folders by text, as a reference: every prefix ending at a separator. */
  function countsByText(keys: Buffer[], separator: Buffer): Map<string, number> {
    const out = new Map<string, number>();
    const s = separator.toString('latin1');
    for (const k of keys) {
      const text = k.toString('latin1');
      for (let at = text.indexOf(s); at >= 0; at = text.indexOf(s, at + s.length)) {
        const prefix = text.slice(0, at + s.length);
        out.set(prefix, (out.get(prefix) ?? 0) + 1);
      }
    }
    return out;
  }

  function countsOf(index: KeyIndex): Map<string, number> {
    const out = new Map<string, number>();
    const walk = (prefix: string, f: { children: Map<string, typeof f> | null; count: number }): void => {
      for (const [seg, child] of f.children ?? []) {
        const p = `${prefix}${seg}${index.separator.toString('latin1')}`;
        out.set(p, child.count);
        walk(p, child);
      }
    };
    walk('', index.root);
    return out;
  }

  it('counts by the bytes of each segment as by their text: multi-byte and binary separators, segments alike but for a byte, names within a larger buffer', () => {
    for (const separator of [Buffer.from(':'), Buffer.from('::'), Buffer.from([0xff, 0x00])]) {
      const s = separator.toString('latin1');
      const keys: Buffer[] = [];
      // Thousands of folders, more than the cache holds: entries are replaced and looked up again.
      for (let i = 0; i < 6000; i++) keys.push(Buffer.from(`u${i % 5000}${s}x${i % 3}${s}${i}`, 'latin1'));
      keys.push(Buffer.from(`a${s}${s}b`, 'latin1'), Buffer.from(`ab${s}c`, 'latin1'), Buffer.from(`ba${s}c`, 'latin1'), Buffer.from(`${s}`, 'latin1'));
      keys.push(Buffer.from([0x61, 0xe9, ...separator, 0x62]), Buffer.from([0x61, 0xea, ...separator, 0x62]), Buffer.from(`:${s.slice(0, 1)}`, 'latin1'));
      const index = new KeyIndex(separator, 1 << 30);
      // Each name at an offset inside a shared buffer, as SCAN's replies hand them over; the bytes after it hold a separator.
      for (const k of keys) {
        const buf = Buffer.concat([Buffer.from('zz'), k, separator, Buffer.from('tail')]);
        index.add(buf, 2, 2 + k.length);
      }
      expect(countsOf(index)).toEqual(countsByText(keys, separator));
      expect(index.root.count).toBe(keys.length);
    }
  });

  it('counts into a folder made again after removeMany let it go', () => {
    const index = indexOf(['gone:1', 'kept:1']);
    const id = [...index.idsUnder(index.folder(Buffer.from('gone:')) as never)][0] as number;
    index.removeMany([id]);
    expect(index.folder(Buffer.from('gone:'))).toBeUndefined();
    index.add(Buffer.from('gone:2'));
    expect(index.folder(Buffer.from('gone:'))?.count).toBe(1);
    expect(index.root.children?.get('gone')?.count).toBe(1);
  });
});
