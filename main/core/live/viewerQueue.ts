/** What one viewer is handed each tick, with its counts since it joined. */
export interface ViewerBatch<T> {
  items: T[];
  /** Items meant for this viewer (its filter kept them, or its subscription matched them). */
  offered: number;
  /** Of those, handed to it. */
  delivered: number;
  /** Of those, dropped because it could not keep up: offered = delivered + dropped once a tick has run. */
  dropped: number;
}

export interface ViewerQueueLimits {
  /** Most items held between two ticks; the rest are dropped and counted. */
  maxItems: number;
  /** Most bytes (as `weigh` counts them) held between two ticks; 0: no byte limit. */
  maxBytes?: number;
}

/**
 * One viewer's share of a shared live stream (MONITOR lines, Pub/Sub messages):
 * what arrived since the last tick, bounded in items and bytes, and exact counts.
 * At each tick it is handed over whole, or, when the viewer's transport still
 * holds earlier batches, dropped and counted: the viewer never holds more than
 * one tick's worth of memory, and every item is either delivered or counted as
 * dropped, never lost uncounted.
 */
export class ViewerQueue<T> {
  offered = 0;
  delivered = 0;
  dropped = 0;
  private held: T[] = [];
  private heldBytes = 0;
  private reported = -1;

  constructor(
    private readonly limits: ViewerQueueLimits,
    private readonly weigh: (item: T) => number = () => 0,
  ) {}

  /** Bytes held now (for tests and diagnostics). */
  get bytes(): number {
    return this.heldBytes;
  }

  offer(item: T): void {
    this.offered++;
    const max = this.limits.maxBytes ?? 0;
    const w = max > 0 ? this.weigh(item) : 0;
    if (this.held.length >= this.limits.maxItems || (max > 0 && this.heldBytes + w > max && this.held.length > 0)) {
      this.dropped++;
      return;
    }
    this.held.push(item);
    this.heldBytes += w;
  }

  /**
   * The tick: what to send, or undefined when nothing changed since the last batch
   * (`changed`: the caller has counts of its own that moved, so a batch goes anyway).
   * `congested` is asked only when there is something to send; when it says so, what
   * is held is dropped and counted instead.
   */
  take(congested: () => boolean, changed = false): ViewerBatch<T> | undefined {
    if (this.held.length === 0 && this.reported === this.offered && !changed) return undefined;
    const items = this.held;
    this.held = [];
    this.heldBytes = 0;
    if (congested()) {
      this.dropped += items.length;
      return undefined;
    }
    this.delivered += items.length;
    this.reported = this.offered;
    return { items, offered: this.offered, delivered: this.delivered, dropped: this.dropped };
  }

  /** Forget what is held (the viewer left): nothing more will be asked of it. */
  clear(): void {
    this.held = [];
    this.heldBytes = 0;
  }
}
