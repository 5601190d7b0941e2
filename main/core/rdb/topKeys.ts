/** One of the biggest keys of a snapshot: its name copied out of the parser's buffer. */
export interface TopKey {
  db: number;
  key: Buffer;
  type: string;
  encoding: string;
  /** The figure it is ranked by. */
  size: number;
  length: number;
  valueBytes: number;
}

/**
 * The `limit` largest keys by one figure, in bounded memory: a min-heap of at most `limit`
 * entries, so each key costs one comparison with the smallest kept (O(log limit) when it gets
 * in), and a name is copied only when its key gets in. Ties keep the key seen first.
 */
export class TopKeys {
  private readonly heap: TopKey[] = [];

  constructor(private readonly limit: number) {}

  /** Whether a key of this size would get in now: the caller copies its name only then. */
  wants(size: number): boolean {
    return this.limit > 0 && (this.heap.length < this.limit || size > (this.heap[0] as TopKey).size);
  }

  add(entry: TopKey): void {
    if (!this.wants(entry.size)) return;
    if (this.heap.length < this.limit) {
      this.heap.push(entry);
      this.up(this.heap.length - 1);
    } else {
      this.heap[0] = entry;
      this.down(0);
    }
  }

  /** Largest first. */
  sorted(): TopKey[] {
    return [...this.heap].sort((a, b) => b.size - a.size);
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((h[parent] as TopKey).size <= (h[i] as TopKey).size) return;
      [h[parent], h[i]] = [h[i] as TopKey, h[parent] as TopKey];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let min = i;
      if (l < h.length && (h[l] as TopKey).size < (h[min] as TopKey).size) min = l;
      if (r < h.length && (h[r] as TopKey).size < (h[min] as TopKey).size) min = r;
      if (min === i) return;
      [h[min], h[i]] = [h[i] as TopKey, h[min] as TopKey];
      i = min;
    }
  }
}
