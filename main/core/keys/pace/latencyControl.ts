/** The longest pause between batches: a server slowed by someone else slows a run, never stops it. */
export const MAX_PAUSE_MS = 200;
/** The first pause after a breach, and the smallest kept (below it the pause is let go). */
const MIN_PAUSE_MS = 0.25;
/** The pause halves every this long while the probe stays under the line ... */
const HALF_LIFE_MS = 1_000;
/** ... and this fast while the window's p99 is under half the budget (the room came back: take it). */
const EASY_HALF_LIFE_MS = 100;
/** Samples in the recent window (at one PING every 10 ms: about the last second). */
const WINDOW = 100;
/** Idle samples (taken while the run pauses) needed before they can raise the idle baseline. */
const IDLE_SAMPLES_TO_TRUST = 20;
const P99 = 0.99;

/**
 * SCAN COUNT for a budget: one call walks ~0.6 µs of slots per key on a typical server, so at
 * the default 500 keys per ms of budget a PING queued behind one waits at most about a third of
 * the budget (1,000 at the default 2 ms). A caller whose calls cost more per key asks for fewer.
 */
export function countFor(maxLatencyMs: number | null, fullCount: number, keysPerMs = 500): number {
  if (maxLatencyMs === null) return fullCount;
  return Math.max(10, Math.min(fullCount, Math.round(maxLatencyMs * keysPerMs)));
}

/**
 * The pause between batches, from the PING probe's samples against `idle p99 + budget`.
 *
 * A sample sent while the run works that comes back over the line doubles the pause; the pause
 * decays with a half-life of a second otherwise. At one sample every 10 ms that settles where
 * about one sample a second, one in a hundred, is over the line: the p99 the budget is about.
 *
 * A sample taken wholly inside the run's own pause shows the node without the run: those keep an
 * idle p99 of their own, and when the node got slower for other reasons (another client, a busy
 * machine) it raises the baseline, so the run is not held back for latency it does not cause.
 */
export class LatencyControl {
  pauseMs = 0;
  private readonly window = new Float64Array(WINDOW);
  private n = 0;
  private readonly idle = new Float64Array(WINDOW);
  private idleN = 0;
  private lastDecay = performance.now();

  constructor(
    /** The idle PING p99 measured before the run. */
    readonly initialIdleP99Ms: number,
    readonly budgetMs: number,
  ) {}

  /** The idle baseline now: the one measured before the run, or the run's own pauses' p99 if higher. */
  get idleP99Ms(): number {
    if (this.idleN < IDLE_SAMPLES_TO_TRUST) return this.initialIdleP99Ms;
    return Math.max(this.initialIdleP99Ms, quantile(Array.from(this.idle.subarray(0, Math.min(this.idleN, WINDOW))), P99));
  }

  get limitMs(): number {
    return this.idleP99Ms + this.budgetMs;
  }

  /** One PING's round trip; `idle` when it went and came back while the run was pausing. */
  sample(rttMs: number, idle: boolean, now = performance.now()): void {
    this.window[this.n++ % WINDOW] = rttMs;
    if (idle) {
      this.idle[this.idleN++ % WINDOW] = rttMs;
      return;
    }
    if (rttMs > this.limitMs) {
      this.pauseMs = Math.min(MAX_PAUSE_MS, Math.max(MIN_PAUSE_MS, this.pauseMs * 2));
      this.lastDecay = now;
      return;
    }
    const easy = (this.recentP99() ?? Infinity) <= this.idleP99Ms + this.budgetMs / 2;
    this.pauseMs *= 2 ** (-(now - this.lastDecay) / (easy ? EASY_HALF_LIFE_MS : HALF_LIFE_MS));
    this.lastDecay = now;
    if (this.pauseMs < MIN_PAUSE_MS) this.pauseMs = 0;
  }

  /** p99 of the recent window (run and pause samples alike); null before the first sample. */
  recentP99(): number | null {
    const have = Math.min(this.n, WINDOW);
    return have === 0 ? null : quantile(Array.from(this.window.subarray(0, have)), P99);
  }
}

/** The q-quantile of `xs` by nearest rank, rounded down: of 20 samples, p99 is the second largest, so one outlier is not the answer. */
export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))] as number;
}
