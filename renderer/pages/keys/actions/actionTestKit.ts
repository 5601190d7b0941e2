import type { KeyActionCounts, KeyActionReport } from '../../../../app/schemas/keyActions';

/** A run's counts for a test: 1,000 keys in the DB, nothing yet done, overridden where the test says. */
export function testCounts(c: Partial<KeyActionCounts> = {}): KeyActionCounts {
  return { scanned: 0, total: 1000, matched: 0, acted: 0, skipped: 0, errors: 0, seconds: 0, shards: [], ...c };
}

/** A real delete's report for a test, with `testCounts`' defaults. */
export function testReport(r: Partial<KeyActionReport> = {}): KeyActionReport {
  return { ...testCounts(), runId: 'r1', op: 'delete', dryRun: false, samples: [], memory: null, errorSamples: [], file: null, notes: [], ...r };
}
