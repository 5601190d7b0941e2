import type { Redis } from 'ioredis';
import { expect } from 'vitest';
import type { ProfileSpec } from '../../../app/schemas/connections';
import { SamplingEvent, SamplingOptions, type SamplingReport } from '../../../app/schemas/sampling';
import { specFor } from '../../../testing/profiles';
import type { RedisProcess } from '../../../testing/redis';
import { runSampling } from './runSampling';
import { connectionFor } from '../resp/rawTarget';
import type { FinalSamplingEvent } from './samplingJobs';
import type { SamplingTuning } from './tuning';

export interface RunResult {
  events: SamplingEvent[];
  final: FinalSamplingEvent;
  /** The final report; fails the test when the run did not end with one. */
  report: SamplingReport;
}

/**
 * Runs a sample or census against a test server the way the app does, and
 * checks every event against the contract (the dispatcher would refuse one
 * that does not parse).
 */
export async function sampleOf(
  proc: RedisProcess,
  options: Partial<Omit<SamplingOptions, 'profileId'>> = {},
  extra: { spec?: Partial<ProfileSpec>; tuning?: Partial<SamplingTuning>; signal?: AbortSignal; onEvent?: (e: SamplingEvent) => void } = {},
): Promise<RunResult> {
  const { profileId: _p, ...parsed } = SamplingOptions.parse({ profileId: 'test', ...options });
  const spec = specFor(proc, extra.spec ?? {});
  const db = parsed.db ?? spec.db;
  const events: SamplingEvent[] = [];
  const final = await runSampling(
    { options: { ...parsed, db }, ...connectionFor(spec, db, 'cacheboard:sampling:test'), ...(extra.tuning ? { tuning: extra.tuning } : {}) },
    (e) => {
      events.push(SamplingEvent.parse(e));
      extra.onEvent?.(e);
    },
    extra.signal ?? new AbortController().signal,
  );
  SamplingEvent.parse(final);
  return {
    events,
    final,
    get report() {
      if (final.kind === 'failed') expect.fail(`the run failed: ${final.error.code} ${final.error.message}`);
      return final.report;
    },
  };
}

/** Write `count` commands through one pipeline per 5,000, so test data takes milliseconds. */
export async function fill(admin: Redis, count: number, write: (p: ReturnType<Redis['pipeline']>, i: number) => void): Promise<void> {
  for (let start = 0; start < count; start += 5_000) {
    const p = admin.pipeline();
    for (let i = start; i < Math.min(count, start + 5_000); i++) write(p, i);
    const res = await p.exec();
    const err = res?.find(([e]) => e !== null)?.[0];
    if (err) throw err;
  }
}

/** A type's row, by name. */
export function typeRow(r: SamplingReport, type: string) {
  return r.types.find((t) => t.type === type);
}

/**
 * z for a 99.99% interval: the bound statistical tests check a sample against, so a
 * correct sampler fails one run in 10,000 per check rather than one in 20.
 */
export const Z_9999 = 3.89;
