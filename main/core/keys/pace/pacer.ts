import type { Pace } from '../../../../app/schemas/keyActions';
import type { RawTarget } from '../../resp/rawTarget';

/** Why a paced run waits now, if it does (shown on the progress panel and by the CLI). */
export interface PacePause {
  reason: 'latency' | 'replica-lag';
  detail: string;
}

export interface PaceState {
  paused: PacePause | null;
  /** The probe's PING p99 before the run began, and over its recent window (ms); null until measured. */
  idleP99Ms: number | null;
  recentP99Ms: number | null;
  /** The pause the pacer inserts between batches now (ms). */
  pauseMs: number;
}

/**
 * Paces one node's SCAN-driven work (the key index build, bulk key actions) to a latency
 * budget: a probe connection of its own PINGs the node, and the pause between batches grows
 * while the probe's recent p99 is past the idle p99 plus `maxLatencyMs`, and shrinks when it is
 * back under. It also waits while any replica of the node lags more than `maxReplicaLagBytes`.
 * `maxLatencyMs: null` is full speed (replica lag still applies).
 */
export interface Pacer {
  /** Resolves when the next batch may go (at once at full speed); rejects only if `signal` aborts. */
  gate(signal: AbortSignal): Promise<void>;
  /** The SCAN COUNT (keys per batch) the next batch should use. */
  batchSize(): number;
  state(): PaceState;
  close(): Promise<void>;
}

/** Placeholder until the probe-driven pacer lands: full speed, fixed batch, never paused. */
export async function startPacer(_target: RawTarget, _pace: Pace, _signal: AbortSignal): Promise<Pacer> {
  return {
    gate: async () => undefined,
    batchSize: () => 1000,
    state: () => ({ paused: null, idleP99Ms: null, recentP99Ms: null, pauseMs: 0 }),
    close: async () => undefined,
  };
}
