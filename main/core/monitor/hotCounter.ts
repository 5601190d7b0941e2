/**
 * Bounded heavy-hitter counter (lossy counting): at most `capacity` distinct
 * names are held. When full, the names seen once are forgotten, and if none
 * were, every count is halved first; each prune frees room for many inserts, so
 * the cost per add stays O(1) amortised. Heavy hitters keep (close to) exact
 * counts; a name in the tail may be undercounted, so counts are "at least".
 */
export class HotCounter {
  private readonly counts = new Map<string, number>();
  /** Names counted since the last reset, including forgotten ones. */
  total = 0;

  constructor(private readonly capacity = 2000) {}

  add(name: string): void {
    this.total++;
    const c = this.counts.get(name);
    if (c !== undefined) {
      this.counts.set(name, c + 1);
      return;
    }
    if (this.counts.size >= this.capacity) this.prune();
    this.counts.set(name, 1);
  }

  top(n: number): { name: string; count: number }[] {
    return [...this.counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, count]) => ({ name, count }));
  }

  get size(): number {
    return this.counts.size;
  }

  private prune(): void {
    for (;;) {
      for (const [k, v] of this.counts) if (v <= 1) this.counts.delete(k);
      if (this.counts.size < this.capacity * 0.75) return;
      for (const [k, v] of this.counts) this.counts.set(k, v >>> 1);
    }
  }
}
