import type { StrategyResult } from '../../../app/schemas/audience';
import { CommandRefused, type AudienceLink } from './audienceLink';
import { commandStats, usecBetween } from './commandStats';
import type { Answer, Strategy, StrategyEnv } from './strategy';
import { summarize } from './timings';
import { explainReply } from './audienceServer';

export interface TimingPlan {
  warmup: number;
  trials: number;
  signal: AbortSignal;
  progress(phase: 'warmup' | 'timed', run: number, runs: number): void;
}

/** The run was cancelled between two runs of a strategy; what finished before stands. */
export class TrialCancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'TrialCancelled';
  }
}

/** A strategy that did not run: every figure zero, the reason said. */
export function skippedResult(s: Strategy, reason: string): StrategyResult {
  return {
    name: s.name,
    skipped: reason,
    runs: 0,
    minMs: 0,
    p50Ms: 0,
    p95Ms: 0,
    meanMs: 0,
    serverMs: 0,
    commands: 0,
    bytesOut: 0,
    bytesIn: 0,
    audienceSize: 0,
    days: [],
    matches: false,
  };
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Warm-up runs, then K timed runs of one strategy on the trial's connection. Client time
 * is from the first command written to the last reply read; server time is the INFO
 * commandstats usec of the commands it sent, as a delta over the timed runs; bytes are
 * the socket's counters. An error reply ends the strategy as skipped with that reply
 * (NOPERM under ACL, no scripting, WRONGTYPE from a mislabelled layout), not the trial.
 */
export async function timeStrategy(link: AudienceLink, s: Strategy, env: StrategyEnv, p: TimingPlan): Promise<StrategyResult> {
  try {
    for (let i = 1; i <= p.warmup; i++) {
      if (p.signal.aborted) throw new TrialCancelled();
      await s.run(link, env);
      p.progress('warmup', i, p.warmup);
    }
    const before = await commandStats(link);
    link.commands = 0;
    link.names.clear();
    const ms: number[] = [];
    let bytesOut = 0;
    let bytesIn = 0;
    let answer: Answer = { size: 0, counts: [] };
    for (let i = 1; i <= p.trials; i++) {
      if (p.signal.aborted) throw new TrialCancelled();
      const b0 = link.bytes();
      const t0 = performance.now();
      answer = await s.run(link, env);
      ms.push(performance.now() - t0);
      const b1 = link.bytes();
      bytesOut += b1.out - b0.out;
      bytesIn += b1.in - b0.in;
      p.progress('timed', i, p.trials);
    }
    const commands = link.commands / p.trials;
    const names = [...link.names];
    const after = await commandStats(link);
    const serverMs = before === null || after === null ? -1 : round3(usecBetween(before, after, names) / p.trials / 1000);
    return {
      name: s.name,
      runs: p.trials,
      ...summarize(ms),
      serverMs,
      commands,
      bytesOut: Math.round(bytesOut / p.trials),
      bytesIn: Math.round(bytesIn / p.trials),
      audienceSize: answer.size,
      days: env.days.map((day, i) => ({ day, count: answer.counts[i] ?? 0 })),
      matches: true,
    };
  } catch (e) {
    if (e instanceof CommandRefused) {
      return skippedResult(s, e.permission ? `not allowed here: ${e.message}` : `stopped by an error reply: ${explainReply(e.message)}`);
    }
    throw e;
  }
}
