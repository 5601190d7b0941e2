/** Knobs that shape the pipeline, not the result: tests and the bench may change them. */
export interface SamplingTuning {
  /** Keys probed together (pipelined rounds of 3, then 1, commands a key; see Prober). */
  groupSize: number;
  /** Groups in flight at once. */
  maxInFlight: number;
  /** RANDOMKEY draws per write. */
  randomBatch: number;
  /** At most one progress event this often. */
  progressEveryMs: number;
  /** At most one partial report this often. */
  partialEveryMs: number;
  /** Probe a census's pages by one Lua script each where the server allows it (see ScriptProber); false: plain commands. */
  scripts: boolean;
}

export const DEFAULT_TUNING: SamplingTuning = {
  // ~4,000 keys in flight: on a 1M-key census (2-core VM) 64 × 8 left the server idle a
  // third of the time, waiting for the next round (3.2-3.6 s); 256 × 16 takes 2.6 s, and
  // more in flight (512 × 16, 256 × 32) gains nothing.
  groupSize: 256,
  maxInFlight: 16,
  randomBatch: 256,
  progressEveryMs: 100,
  partialEveryMs: 1_000,
  scripts: true,
};
