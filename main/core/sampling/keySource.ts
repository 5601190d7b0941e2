/** Where a run's keys come from: SCAN batches (census) or RANDOMKEY draws (sample). */
export interface KeySource {
  /**
   * The next batch, or null when there is no more. `prefetch`: ask the server
   * for the batch after it now, so it is ready when the probes are done; off
   * when the run pauses between batches (the server rests during a pause).
   */
  next(prefetch: boolean): Promise<Buffer[] | null>;
  /** How far along, as `examined` of `target` for progress events. */
  readonly target: number;
  /** Caveats to report (duplicates skipped, an empty DB…). */
  warnings(): string[];
}
