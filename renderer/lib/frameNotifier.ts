export type Schedule = (run: () => void) => void;

export const nextFrame: Schedule = (run) => {
  requestAnimationFrame(run);
};

/**
 * For page state kept outside React (a live stream's buffers): changes only mutate and
 * call `changed()`; listeners hear of them at most once per animation frame and at
 * most every `minGapMs`, so a burst of batches costs one render, and React holds only
 * `version` (useSyncExternalStore(listen, getVersion)).
 */
export class FrameNotifier {
  version = 0;
  private readonly listeners = new Set<() => void>();
  private scheduled = false;
  private lastNotice = -Infinity;

  constructor(
    private readonly schedule: Schedule = nextFrame,
    private readonly minGapMs = 100,
  ) {}

  readonly listen = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getVersion = (): number => this.version;

  changed(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    const notify = () =>
      this.schedule(() => {
        this.scheduled = false;
        this.lastNotice = performance.now();
        this.version++;
        for (const l of this.listeners) l();
      });
    const wait = this.lastNotice + this.minGapMs - performance.now();
    if (wait > 0) setTimeout(notify, wait);
    else notify();
  }
}
