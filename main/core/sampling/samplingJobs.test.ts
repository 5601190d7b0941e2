import { describe, expect, it } from 'vitest';
import type { SamplingEvent, SamplingReport } from '../../../app/schemas/sampling';
import { SamplingJobs } from './samplingJobs';

const report = (keysExamined: number): SamplingReport => ({
  method: 'sample',
  db: 0,
  dbsize: 100,
  keysExamined,
  keysMissing: 0,
  seconds: 0.1,
  memoryTotal: 0,
  estimatedMemoryTotal: 0,
  memoryTotalInterval: { low: 0, high: 0 },
  memorySamples: 5,
  types: [],
  encodings: [],
  sizeHistograms: [],
  lengthHistograms: [],
  ttl: [],
  topByMemory: [],
  topByLength: [],
  topStringsByLength: [],
  namespaces: [],
  warnings: [],
});
const progress = (examined: number): SamplingEvent => ({ kind: 'progress', examined, target: 100, keysPerSec: 1, elapsedMs: examined });
const tick = () => new Promise((r) => setTimeout(r, 5));

describe('sampling jobs', () => {
  it('replays started, the latest progress, the latest partial report and the end to a late subscriber', async () => {
    const jobs = new SamplingJobs();
    let finish!: () => void;
    const id = jobs.start('p/0', async (_id, emit) => {
      emit({ kind: 'started', method: 'sample', db: 0, dbsize: 100, target: 100 });
      emit(progress(10));
      emit({ kind: 'partial', report: report(10) });
      emit(progress(20));
      emit({ kind: 'partial', report: report(20) });
      await new Promise<void>((r) => (finish = r));
      return { kind: 'done', report: report(100) };
    });
    expect(id).toMatch(/^sample_[A-Za-z0-9_-]{8}$/);
    const during: SamplingEvent[] = [];
    jobs.subscribe(id, (e) => during.push(e));
    expect(during.map((e) => e.kind)).toEqual(['started', 'progress', 'partial']);
    expect(during[1]).toMatchObject({ examined: 20 });
    finish();
    await tick();
    const late: SamplingEvent[] = [];
    jobs.subscribe(id, (e) => late.push(e));
    expect(late.map((e) => e.kind)).toEqual(['started', 'progress', 'partial', 'done']);
    expect(late.at(-1)).toMatchObject({ report: { keysExamined: 100 } });
    expect(jobs.cancel(id)).toBe(false);
  });

  it('turns a runner that throws into a failed event, and knows no other ids', async () => {
    const jobs = new SamplingJobs();
    const id = jobs.start('p/0', () => Promise.reject(new Error('boom')));
    await tick();
    const got: SamplingEvent[] = [];
    jobs.subscribe(id, (e) => got.push(e));
    expect(got).toEqual([{ kind: 'failed', error: { code: 'INTERNAL', message: 'sampling crashed: boom' } }]);
    expect(() => jobs.subscribe('sample_nope', () => undefined)).toThrow(/No sampling run with id sample_nope/);
  });

  it('cancels through the abort signal', async () => {
    const jobs = new SamplingJobs();
    const id = jobs.start(
      'p/0',
      (_id, _emit, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve({ kind: 'cancelled', report: report(3) }))),
    );
    expect(jobs.cancel(id)).toBe(true);
    await tick();
    const got: SamplingEvent[] = [];
    jobs.subscribe(id, (e) => got.push(e));
    expect(got).toEqual([{ kind: 'cancelled', report: report(3) }]);
  });
});
