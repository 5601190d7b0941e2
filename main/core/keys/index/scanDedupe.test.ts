import { describe, expect, it } from 'vitest';
import { KeyIndex } from './keyIndex';
import { ScanDedupe } from './scanDedupe';

const names = (n: number) => [...Array(n).keys()].map((i) => Buffer.from(`f${i % 5}:k${i}`));

/** Every key once, then a third of them again (as SCAN returns keys twice across a resize), fed as SCAN pages would be. */
function feed(index: KeyIndex, keys: Buffer[]): ScanDedupe {
  const seen = new ScanDedupe(index);
  const again = keys.filter((_, i) => i % 3 === 0);
  for (const k of [...keys.slice(0, 500), ...again.slice(0, 100), ...keys.slice(500), ...again]) {
    const framed = Buffer.concat([Buffer.from('**'), k]);
    seen.add(framed, 2, framed.length);
  }
  seen.settle();
  return seen;
}

describe('ScanDedupe', () => {
  it('with the names: repeats are logged, then taken out of every count and folder list once the scan ends', () => {
    const keys = names(3000);
    const index = new KeyIndex(Buffer.from(':'), 64 * 2 ** 20);
    const seen = feed(index, keys);
    expect(seen.removed).toBe(1000 + 100);
    expect(index.state.scanned).toBe(3000);
    expect(index.root.count).toBe(3000);
    for (let f = 0; f < 5; f++) {
      const folder = index.folder(Buffer.from(`f${f}:`));
      expect(folder?.count).toBe(600);
      expect(folder?.leafCount).toBe(600);
      expect(new Set(index.sortedLeaves(folder as NonNullable<typeof folder>)).size).toBe(600);
    }
  });

  it('names over budget mid-scan: the repeats so far are settled by name, the rest are caught live', () => {
    const keys = names(3000);
    // The store's fixed cost (its first chunk and arrays) plus room for ~1,500 more keys.
    const probe = new KeyIndex(Buffer.from(':'), 2 ** 30);
    probe.add(Buffer.from('f0:k0'));
    const index = new KeyIndex(Buffer.from(':'), probe.bytes + 15_000);
    const seen = feed(index, keys);
    expect(index.state.names).toBe('over-budget');
    expect(index.state.scanned).toBe(3000);
    expect(index.root.count).toBe(3000);
    for (let f = 0; f < 5; f++) expect(index.folder(Buffer.from(`f${f}:`))?.count).toBe(600);
    // The 100 repeats among the first 600 keys were settled by name before the names went.
    expect(seen.removed).toBe(100);
  });
});
