/** Knobs that shape the pipeline, not the result: tests and the bench may change them. */
export interface SamplingTuning {
  /** Keys probed together (two pipelined writes of 4 and 1 commands a key). */
  groupSize: number;
  /** Groups in flight at once. */
  maxInFlight: number;
  /** RANDOMKEY draws per write. */
  randomBatch: number;
  /** At most one progress event this often. */
  progressEveryMs: number;
  /** At most one partial report this often. */
  partialEveryMs: number;
}

export const DEFAULT_TUNING: SamplingTuning = {
  groupSize: 64,
  maxInFlight: 8,
  randomBatch: 256,
  progressEveryMs: 100,
  partialEveryMs: 1_000,
};
