import type { Prober } from './probe';

/**
 * Keys to probe, cut into small groups with a few groups in flight. Small
 * groups keep a key's two rounds close together on the server, while its data
 * is still in the CPU cache (a cold key costs Redis ~1 µs more a command on
 * the development VM); several in flight keep the pipe full across round trips.
 */
export class ProbeQueue {
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown = null;

  constructor(
    private readonly prober: Prober,
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
