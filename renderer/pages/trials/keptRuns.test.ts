import { describe, expect, it } from 'vitest';
import type { TrialReport } from '../../../app/schemas/trials';
import { comparisonGroups, KeptRuns, MAX_KEPT, type KeptRun } from './keptRuns';
import { pipelineReport, variant } from './reportTestKit';

const loadReport: TrialReport = {
  trial: 'load',
  address: '127.0.0.1:6390',
  dbs: [1],
  params: { n: 2000, clients: 4, dataSize: 16, keyspace: 100 },
  variants: [variant('set', 2000, 0.1, { latency: { p50Ms: 0.2, p95Ms: 0.5, p99Ms: 1.234, maxMs: 3 } }), variant('get', 2000, 0.08)],
  sweep: [],
  seconds: 0.3,
  warnings: [],
};

const kept = (jobId: string, report: TrialReport = pipelineReport()): KeptRun => ({
  jobId,
  profileName: 'local',
  outcome: 'done',
  endedAt: 0,
  report,
});

describe('KeptRuns', () => {
  it('keeps each run once, newest first, and tells its listeners', () => {
    const store = new KeptRuns();
    let calls = 0;
    const off = store.subscribe(() => calls++);
    store.add(kept('trial_a'));
    store.add(kept('trial_b'));
    const before = store.list();
    store.add(kept('trial_a'));
    expect(store.list()).toBe(before);
    expect(store.list().map((r) => r.jobId)).toEqual(['trial_b', 'trial_a']);
    store.remove('trial_b');
    expect(store.list().map((r) => r.jobId)).toEqual(['trial_a']);
    off();
    store.remove('trial_a');
    expect(calls).toBe(3);
  });

  it('skips a run that finished no variant and holds at most MAX_KEPT', () => {
    const store = new KeptRuns();
    store.add(kept('trial_none', pipelineReport({ variants: [] })));
    expect(store.list()).toHaveLength(0);
    for (let i = 0; i < MAX_KEPT + 5; i++) store.add(kept(`trial_${i}`));
    expect(store.list()).toHaveLength(MAX_KEPT);
    expect(store.list()[0]?.jobId).toBe(`trial_${MAX_KEPT + 4}`);
  });
});

describe('comparisonGroups', () => {
  it('puts each trial in its own table, a column per variant, runs numbered oldest first', () => {
    const proxied = pipelineReport({ latency: { requestedMs: 0.3, directRttMs: 0.05, proxiedRttMs: 0.7, addedRttMs: 0.65 } });
    const groups = comparisonGroups([kept('trial_c', loadReport), kept('trial_b', proxied), kept('trial_a')]);
    expect(groups.map((g) => g.trial)).toEqual(['pipeline', 'load']);
    const [pipeline, load] = groups;
    expect(pipeline?.variants.map((v) => v.name)).toEqual(['plain', 'pipelined', 'MULTI/EXEC', 'pipelined MULTI/EXEC']);
    expect(pipeline?.rows.map((r) => [r.number, r.proxy])).toEqual([
      ['#2', '+0.3 ms each way'],
      ['#1', 'direct'],
    ]);
    expect(pipeline?.rows[0]?.params).toBe('N 2,000 · B 100 · sweep 500 · db0');
    expect(pipeline?.rows[0]?.cells.pipelined).toEqual({ rate: '200,000/s', sub: '20.0×' });
    expect(load?.rows[0]?.params).toBe('C 4 · N 2,000 · D 16 B · R 100 · db1');
    expect(load?.rows[0]?.cells.set).toEqual({ rate: '20,000/s', sub: 'p99 1.23 ms' });
  });
});
