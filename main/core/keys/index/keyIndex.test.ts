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
