/** What the line list reads: rows by index, oldest first. */
export interface RowSource<T> {
  readonly length: number;
  at(index: number): T | undefined;
}

/**
 * A fixed-capacity FIFO over one preallocated array: pushing onto a full ring
 * evicts the oldest item, so memory never grows with the producer's speed.
 */
export class Ring<T> implements RowSource<T> {
  private readonly items: (T | undefined)[];
  private head = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`ring capacity must be a positive integer, got ${capacity}`);
    this.items = new Array<T | undefined>(capacity);
  }

  get length(): number {
    return this.size;
  }

  /** 0 is the oldest item. */
  at(index: number): T | undefined {
    if (index < 0 || index >= this.size) return undefined;
    return this.items[(this.head + index) % this.capacity];
  }

  last(): T | undefined {
    return this.at(this.size - 1);
  }

  /** Appends; returns the item evicted to make room, if any. */
  push(item: T): T | undefined {
    if (this.size < this.capacity) {
      this.items[(this.head + this.size) % this.capacity] = item;
      this.size++;
      return undefined;
    }
    const evicted = this.items[this.head];
    this.items[this.head] = item;
    this.head = (this.head + 1) % this.capacity;
    return evicted;
  }

  /** Removes and returns the oldest item. */
  shift(): T | undefined {
    if (this.size === 0) return undefined;
    const item = this.items[this.head];
    this.items[this.head] = undefined;
    this.head = (this.head + 1) % this.capacity;
    this.size--;
    return item;
  }

  clear(): void {
    this.items.fill(undefined);
    this.head = 0;
    this.size = 0;
  }

  toArray(): T[] {
    const out: T[] = [];
    for (let i = 0; i < this.size; i++) out.push(this.items[(this.head + i) % this.capacity] as T);
    return out;
  }
}

/** A frozen copy as a RowSource (the paused view). */
export function frozen<T>(items: readonly T[]): RowSource<T> {
  return { length: items.length, at: (i) => items[i] };
}
