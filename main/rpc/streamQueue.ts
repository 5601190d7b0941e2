export interface StreamQueueOptions<E> {
  /** Most events held while waiting for the next flush; beyond it events are dropped and counted. */
  capacity: number;
  /** Minimum gap between batches: 50 ms means at most 20 batches a second. */
  intervalMs: number;
  /** Deliver a batch; return false when the transport is congested (the batch is then kept). */
  flush(events: E[], droppedTotal: number): boolean;
}

/**
 * Server-side batching for one subscription. Memory is bounded by `capacity`
 * whatever the producer's speed: a slow consumer costs dropped events (counted
 * exactly and reported with the next batch), never memory.
 */
export class StreamQueue<E> {
  private buf: E[] = [];
  private dropped = 0;
  private reportedDropped = 0;
  private lastFlush = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(private readonly opts: StreamQueueOptions<E>) {}

  push(e: E): void {
    if (this.closed) return;
    if (this.buf.length >= this.opts.capacity) this.dropped += 1;
    else this.buf.push(e);
    this.schedule();
  }

  get droppedTotal(): number {
    return this.dropped;
  }

  get queued(): number {
    return this.buf.length;
  }

  /** Deliver whatever is queued now (used before ending a stream so nothing is lost). */
  drain(): void {
    this.clearTimer();
    this.tick(true);
  }

  close(): void {
    this.closed = true;
    this.clearTimer();
    this.buf = []; // free at once: a closed consumer must not pin memory
  }

  private clearTimer(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    if (this.timer !== null || this.closed) return;
    const wait = Math.max(0, this.lastFlush + this.opts.intervalMs - Date.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.tick(false);
    }, wait);
  }

  private tick(force: boolean): void {
    if (this.closed) return;
    if (this.buf.length === 0 && this.dropped === this.reportedDropped) return;
    const events = this.buf;
    this.buf = [];
    if (!this.opts.flush(events, this.dropped)) {
      // Congested: keep the batch and retry; meanwhile pushes beyond capacity are dropped.
      this.buf = events;
      if (!force) this.schedule();
      return;
    }
    this.reportedDropped = this.dropped;
    this.lastFlush = Date.now();
  }
}
