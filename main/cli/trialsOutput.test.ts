import { describe, expect, it } from 'vitest';
import type { TrialReport } from '../../app/schemas/trials';
import { trialsJson, trialsText } from './trialsOutput';

const proxied: TrialReport = {
  trial: 'multiplex',
  address: '10.0.0.5:6379',
  dbs: [2, 3],
  params: { n: 100, batch: 10 },
  latency: { requestedMs: 0.3, directRttMs: 0.04123, proxiedRttMs: 0.68456, addedRttMs: 0.64333 },
  variants: [
    { variant: 'blocking', label: 'one connection, SELECT, sequential', ops: 100, seconds: 0.123456, opsPerSec: 810.0064, ratio: 1, keys: 20, errors: 0 },
    { variant: 'multiplexed', label: 'per-DB connections, pipelined', ops: 100, seconds: 0.01, opsPerSec: 10_000, ratio: 12.34567, keys: 20, errors: 0 },
  ],
  sweep: [],
  seconds: 0.4567,
  warnings: ['a warning'],
};

describe('trials output', () => {
  it('--json keys variants by name in snake_case, rounded, with the proxy figures', () => {
    expect(trialsJson(proxied, 'done')).toEqual({
      trial: 'multiplex',
      outcome: 'done',
      address: '10.0.0.5:6379',
      dbs: [2, 3],
      params: { n: 100, batch: 10 },
      latency: { requested_ms: 0.3, direct_rtt_ms: 0.0412, proxied_rtt_ms: 0.6846, added_rtt_ms: 0.6433 },
      variants: {
        blocking: { label: 'one connection, SELECT, sequential', ops: 100, seconds: 0.1235, ops_per_sec: 810, ratio: 1, keys: 20, errors: 0 },
        multiplexed: { label: 'per-DB connections, pipelined', ops: 100, seconds: 0.01, ops_per_sec: 10_000, ratio: 12.346, keys: 20, errors: 0 },
      },
      sweep: [],
      seconds: 0.457,
      warnings: ['a warning'],
    });
  });

  it('prints a table against the first variant, the proxy line and the warnings', () => {
    const text = trialsText(proxied, 'done');
    expect(text).toMatch(/^Multiplex trial on 10\.0\.0\.5:6379\/2: 100 INCRs over db2, db3, batches of 10 \(0\.46 s\)$/m);
    expect(text).toMatch(/^ {2}through a proxy adding 0\.3 ms each way: round trip 0\.041 ms direct, 0\.685 ms proxied \(\+0\.643\)$/m);
    expect(text).toMatch(/^ {2}variant +seconds +ops\/s +vs blocking$/m);
    expect(text).toMatch(/^ {2}per-DB connections, pipelined +0\.010 +10,000 +12\.35x$/m);
    expect(text).toMatch(/^WARNINGS\n {2}a warning$/m);
  });

  it('says so when a stopped run finished no variant', () => {
    const text = trialsText({ ...proxied, variants: [], warnings: [] }, 'cancelled');
    expect(text).toMatch(/^Multiplex trial STOPPED on /);
    expect(text).toMatch(/^ {2}\(no variant finished\)$/m);
    expect(text).not.toMatch(/vs /);
  });
});
