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
  /** Probe keys by one Lua script a group where the server allows it (see ScriptProber); false: plain commands. */
  scripts: boolean;
  /** Keys a script probes at once, and scripts in flight, when probing by script. */
  scriptGroupSize: number;
  scriptMaxInFlight: number;
  /** Scripts in flight when the run is paced (pauseMs > 0): a paced job is one that must not be felt. */
  scriptMaxInFlightPaced: number;
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
  // Redis runs every complete command of a client's read (16 KB) before it serves another client,
  // and a script asks 25 bytes a key where plain commands ask ~140: 256 × 16 in flight made a
  // PING wait behind ~650 keys of work a read (1M-key census, PING p50 6.1 ms, p99 39 ms against
  // 1.3 and 21 by plain commands, load average ~7). 64 × 4 keeps ~256 keys queued (p50 1.8 ms,
  // p99 20 ms) for ~0.1-0.2 s more Node CPU a million keys.
  scriptGroupSize: 64,
  scriptMaxInFlight: 4,
  // Paced (--pause-ms 2, same census): 4 in flight gave PING p50 0.63 ms against 0.19 by plain
  // commands; 2 in flight 0.21 (p99 5.8 ms all three, load average ~5).
  scriptMaxInFlightPaced: 2,
};
