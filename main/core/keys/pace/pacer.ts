import { setTimeout as sleep } from 'node:timers/promises';
import { AppError } from '../../../../app/errors';
import type { Pace } from '../../../../app/schemas/keyActions';
import type { RawTarget } from '../../resp/rawTarget';
import { countFor, LatencyControl } from './latencyControl';
import { PaceProbe } from './paceProbe';
import { replicaBehind } from './replicaLag';

/** Why a paced run waits now, if it does (shown on the progress panel and by the CLI). */
export interface PacePause {
  reason: 'latency' | 'replica-lag';
  detail: string;
}

export interface PaceState {
  paused: PacePause | null;
  /**
   * The probe's idle PING p99 (measured before the run began, raised if PINGs taken during the
   * run's own pauses show the node got slower for other reasons) and its p99 over the recent
   * window (ms); null at full speed or until measured.
   */
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

/** Keys per batch at full speed (and the most a paced run uses). */
export const FULL_BATCH = 1000;

/** How a caller's batches map to server time: the SCAN COUNT at full speed, and keys per ms of budget when paced. */
export interface BatchSizing {
  fullCount: number;
  keysPerMs: number;
}

const INDEX_SIZING: BatchSizing = { fullCount: FULL_BATCH, keysPerMs: 500 };
/** One PING every this often while a paced run goes: ~100 samples a second, each a few µs of server time. */
const PROBE_EVERY_MS = 10;
/** INFO replication every this often (also at full speed, for the replica-lag limit). */
const LAG_EVERY_MS = 500;
/** Below this pause the state does not call the run paused (sub-millisecond pauses are pacing, not waiting). */
const PAUSED_AT_MS = 1;

/**
 * Opens the probe connection, measures the node's idle PING p99 (~30 ms; skipped at full speed)
 * and reads its replicas' lag once, then paces until close(). Rejects when the node refuses
 * PING under a latency budget (the pace can't be measured: full speed is the explicit choice).
 */
export async function startPacer(target: RawTarget, pace: Pace, signal: AbortSignal, sizing: BatchSizing = INDEX_SIZING): Promise<Pacer> {
  const probe = await PaceProbe.open(target);
  try {
    let control: LatencyControl | null = null;
    if (pace.maxLatencyMs !== null) {
      const idle = await probe.idleP99(signal).catch((e: unknown) => {
        if (e instanceof AppError && e.code === 'NOPERM') {
          throw new AppError(
            'NOPERM',
            `${e.message} The pace times TIME or PING on the server to keep its latency within budget; without either, run at full speed.`,
          );
        }
        throw e;
      });
      control = new LatencyControl(idle, pace.maxLatencyMs);
    }
    const pacer = new ProbePacer(probe, control, countFor(pace.maxLatencyMs, sizing.fullCount, sizing.keysPerMs), pace.maxReplicaLagBytes);
    await pacer.pollLag();
    pacer.run(signal);
    return pacer;
  } catch (e) {
    await probe.close();
    throw e;
  }
}

class ProbePacer implements Pacer {
  private lag: { pause: PacePause | null; watched: boolean };
  private lagWaiters: (() => void)[] = [];
  /** Pause owed but not yet slept: sub-millisecond pauses add up to one sleep every few batches. */
  private debtMs = 0;
  /** Which rest (a pause or a replica-lag wait) the run is in now, if any: a PING wholly inside one is an idle sample. */
  private resting: number | null = null;
  private rests = 0;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private probeFailed = false;

  constructor(
    private readonly probe: PaceProbe,
    private readonly control: LatencyControl | null,
    private readonly count: number,
    private readonly lagLimitBytes: number,
  ) {
    // A read-only run (the index build) passes Infinity: its SCANs give the replicas nothing to copy.
    this.lag = { pause: null, watched: Number.isFinite(lagLimitBytes) };
  }

  async gate(signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw cancelled();
    if (this.lag.pause !== null && !this.closed) {
      const rest = this.rest();
      try {
        while (this.lag.pause !== null && !this.closed) await this.lagCleared(signal);
      } finally {
        this.wake(rest);
      }
    }
    if (this.control === null) return;
    this.debtMs += this.control.pauseMs;
    if (this.debtMs < 1) return;
    const t0 = performance.now();
    const rest = this.rest();
    try {
      await sleep(this.debtMs, undefined, { signal });
    } catch {
      throw cancelled();
    } finally {
      this.wake(rest);
    }
    // setTimeout oversleeps a little: what was slept pays the debt, and no credit is kept.
    this.debtMs = Math.max(0, this.debtMs - (performance.now() - t0));
  }

  batchSize(): number {
    return this.count;
  }

  state(): PaceState {
    const c = this.control;
    const recent = c?.recentP99() ?? null;
    let paused = this.lag.pause;
    if (paused === null && c !== null && c.pauseMs >= PAUSED_AT_MS) {
      paused = {
        reason: 'latency',
        detail: `PING p99 ${ms(recent ?? 0)} against ${ms(c.idleP99Ms)} idle (budget +${ms(c.budgetMs)}): ${ms(c.pauseMs)} between batches`,
      };
    }
    return { paused, idleP99Ms: c?.idleP99Ms ?? null, recentP99Ms: recent, pauseMs: c?.pauseMs ?? 0 };
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.wakeLagWaiters();
    await this.probe.close();
  }

  /** Reads the replicas' lag now (INFO replication); a refused INFO stops the watching. */
  async pollLag(): Promise<void> {
    if (!this.lag.watched) return;
    const info = await this.probe.replication();
    if (info === null) {
      this.lag = { pause: null, watched: false };
    } else {
      const behind = replicaBehind(info, this.lagLimitBytes);
      this.lag = { pause: behind === null ? null : { reason: 'replica-lag', detail: behind }, watched: true };
    }
    if (this.lag.pause === null) this.wakeLagWaiters();
  }

  /** The probe loop: a PING every 10 ms under a budget, INFO replication every 500 ms; one command at a time. */
  run(signal: AbortSignal): void {
    let lastLag = performance.now();
    const every = this.control === null ? LAG_EVERY_MS : PROBE_EVERY_MS;
    const tick = async (): Promise<void> => {
      this.timer = null;
      if (this.closed || signal.aborted || this.probeFailed || (this.control === null && !this.lag.watched)) return;
      try {
        if (this.control !== null) {
          const rest = this.resting;
          const rtt = await this.probe.sample();
          this.control.sample(rtt, rest !== null && this.resting === rest);
        }
        if (performance.now() - lastLag >= LAG_EVERY_MS) {
          lastLag = performance.now();
          await this.pollLag();
        }
      } catch {
        // The probe's connection went (the run's own will say why, if it matters): pace on the last figures.
        this.probeFailed = true;
        this.lag.pause = null;
        this.wakeLagWaiters();
        return;
      }
      if (!this.closed) this.timer = setTimeout(() => void tick(), every).unref();
    };
    this.timer = setTimeout(() => void tick(), every).unref();
  }

  private rest(): number {
    this.resting = ++this.rests;
    return this.resting;
  }

  private wake(rest: number): void {
    if (this.resting === rest) this.resting = null;
  }

  private lagCleared(signal: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        this.lagWaiters = this.lagWaiters.filter((w) => w !== wake);
        reject(cancelled());
      };
      const wake = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve();
      };
      this.lagWaiters.push(wake);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private wakeLagWaiters(): void {
    const ws = this.lagWaiters;
    this.lagWaiters = [];
    for (const w of ws) w();
  }
}

function cancelled(): AppError {
  return new AppError('CANCELLED', 'The run was cancelled.');
}

function ms(n: number): string {
  return `${n < 10 ? n.toFixed(1) : Math.round(n)} ms`;
}
