import type { AudienceReport, StrategyName, StrategyResult } from '../../../app/schemas/audience';

/** A strategy's result for tests: it ran K=10 times and matched, unless told otherwise. */
export function strategy(name: StrategyName, p50Ms: number, patch: Partial<StrategyResult> = {}): StrategyResult {
  return {
    name,
    runs: 10,
    minMs: p50Ms * 0.8,
    p50Ms,
    p95Ms: p50Ms * 1.5,
    meanMs: p50Ms * 1.1,
    serverMs: p50Ms * 0.7,
    commands: 3,
    bytesOut: 420,
    bytesIn: 96,
    audienceSize: 1200,
    days: [
      { day: '2024-01-01', count: 500 },
      { day: '2024-01-02', count: 480 },
    ],
    matches: true,
    ...patch,
  };
}

export function report(patch: Partial<AudienceReport> = {}): AudienceReport {
  return {
    id: 'rep_1',
    profileId: 'p1',
    address: '127.0.0.1:6390',
    db: 0,
    where: 'gender=f AND region=NE',
    normalized: 'gender=f AND region=NE',
    from: '2024-01-01',
    to: '2024-01-02',
    trials: 10,
    warmup: 1,
    audienceSize: 1200,
    days: [
      { day: '2024-01-01', count: 500 },
      { day: '2024-01-02', count: 480 },
    ],
    strategies: [strategy('bitmap-lua', 6), strategy('bitmap-pipeline', 11), strategy('sets', 510), strategy('zunionstore', 77)],
    countsMatch: true,
    mismatches: [],
    warnings: [],
    finishedAt: '2024-05-01T10:00:00.000Z',
    seconds: 12.5,
    ...patch,
  };
}
