import { describe, expect, it } from 'vitest';
import type { LoadReport } from '../../../app/schemas/bulk';
import { loadSummary } from './loadSummary';

const base: LoadReport = {
  jobId: 'j1',
  file: 'big.resp',
  format: 'resp',
  mode: 'swap',
  targetDb: 8,
  stagingDb: 15,
  outcome: 'ok',
  records: 40_000,
  commands: 40_000,
  replies: 40_000,
  errors: 0,
  firstErrors: [],
  seconds: 1.5,
  opsPerSec: 26_000,
  recordsPerSec: 26_000,
  swapped: true,
  warnings: [],
};

describe('a load on the audit log', () => {
  it('records the live writes a swap discarded, and a staging DB it left', () => {
    const { detail } = loadSummary({
      ...base,
      liveWrites: { db: 8, writes: 30, discarded: 30, keys: ['order:1'] },
      stagingLeft: { db: 15, keys: 50, reason: 'another client wrote into it', cleanCommand: 'redis-cli -n 15 FLUSHDB ASYNC' },
    });
    expect(detail).toContain('live DB 8: 30 writes by others, 30 discarded');
    expect(detail).toContain('staging DB 15 left with 50 keys (another client wrote into it)');
  });

  it('says when live writes could not be counted, never zero', () => {
    const { detail } = loadSummary({ ...base, liveWrites: { db: 8, discarded: 0, keys: [], note: 'CONFIG refused' } });
    expect(detail).toContain('live DB 8 writes not counted');
    expect(detail).not.toContain('0 writes');
  });
});
