/** Further than this ahead, a timer does the waiting; closer, the event loop spins. */
const TIMER_MARGIN_MS = 2;

interface Pending {
  due: number;
  run: () => void;
}

/**
 * Runs callbacks a fixed delay after they were pushed, in push order, to within a
 * few tens of microseconds. Timers alone would not do: setTimeout rounds to whole
 * milliseconds (and fires late), which would turn the default 0.3 ms into 1 ms or
 * more. So a timer covers the long part of a wait and setImmediate, checking the
 * monotonic clock, the last ~2 ms. The loop still polls I/O between checks, but
 * it keeps one core busy while anything waits: the price of sub-ms accuracy.
 */
export class DelayLine {
  private readonly queue: Pending[] = [];
  private head = 0;
  private timer: NodeJS.Timeout | undefined;
  private immediate: NodeJS.Immediate | undefined;
  private closed = false;

  constructor(readonly delayMs: number) {}

  push(run: () => void): void {
    if (this.closed) return;
    if (this.delayMs <= 0 && this.head === this.queue.length) {
      run();
      return;
    }
    this.queue.push({ due: performance.now() + this.delayMs, run });
    this.schedule();
  }

  /** Drops whatever still waits. */
  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.head = 0;
    this.cancelWake();
  }

  private readonly pump = (): void => {
    this.timer = undefined;
    this.immediate = undefined;
    const now = performance.now();
    while (this.head < this.queue.length && this.queue[this.head]!.due <= now) {
      this.queue[this.head++]!.run();
    }
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    } else if (this.head > 1024) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.schedule();
  };

  private schedule(): void {
    if (this.closed || this.head === this.queue.length || this.timer !== undefined || this.immediate !== undefined) return;
    const wait = this.queue[this.head]!.due - performance.now();
    if (wait > TIMER_MARGIN_MS) this.timer = setTimeout(this.pump, Math.floor(wait - TIMER_MARGIN_MS / 2));
    else this.immediate = setImmediate(this.pump);
  }

  private cancelWake(): void {
    clearTimeout(this.timer);
    if (this.immediate !== undefined) clearImmediate(this.immediate);
    this.timer = undefined;
    this.immediate = undefined;
  }
}
