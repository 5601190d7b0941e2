import type { KeyProber } from './keyProber';

/**
 * Keys to probe, cut into groups with several groups in flight: a group waits
 * for one round's replies before it sends the next, and the other groups keep
 * the server busy meanwhile. A key's rounds stay a few thousand commands
 * apart, close enough that its data is still in the server's CPU cache.
 */
export class ProbeQueue {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown = null;

  constructor(
    private readonly prober: KeyProber,
    private readonly groupSize: number,
    private readonly maxInFlight: number,
    private readonly onGroupDone: () => void,
  ) {}

  /** Queue `keys`; resolves once there is room for more. Rejects with the first probe failure. */
  async push(keys: Buffer[]): Promise<void> {
    for (let i = 0; i < keys.length; i += this.groupSize) {
      this.throwIfFailed();
      const group = keys.slice(i, i + this.groupSize);
      const p: Promise<void> = this.prober.probe(group).then(
        () => {
          this.inFlight.delete(p);
          this.onGroupDone();
        },
        (e: unknown) => {
          this.inFlight.delete(p);
          this.failure ??= e;
        },
      );
      this.inFlight.add(p);
      while (this.inFlight.size >= this.maxInFlight) await Promise.race(this.inFlight);
    }
    this.throwIfFailed();
  }

  /** Wait for every group in flight. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.race(this.inFlight);
    this.throwIfFailed();
  }

  private throwIfFailed(): void {
    if (this.failure !== null) throw this.failure;
  }
}
