import { describe, expect, it } from 'vitest';
import type { LoadEvent } from '../../../../app/schemas/bulk';
import { ProgressReporter } from './progressReporter';

const p = (replies: number, bytesRead: number) => ({ records: replies, commands: replies, replies, errors: 0, bytesRead });

describe('ProgressReporter', () => {
  it('emits at most one progress event per 100 ms, with ETA from bytes read', () => {
    let now = 1_000;
    const events: LoadEvent[] = [];
    const r = new ProgressReporter({ emit: (e) => events.push(e), bytesTotal: 1_000, now: () => now });
    for (let i = 1; i <= 100; i++) {
      now += 10; // a callback every 10 ms for a second
      r.update(p(i * 100, i * 5));
    }
    expect(events.length).toBeGreaterThanOrEqual(9);
    expect(events.length).toBeLessThanOrEqual(11);
    const last = events.at(-1);
    expect(last).toMatchObject({ kind: 'progress', bytesTotal: 1_000 });
    if (last?.kind !== 'progress') throw new Error('not progress');
    expect(last.opsPerSec).toBeGreaterThan(9_000);
    expect(last.opsPerSec).toBeLessThan(11_000);
    // Half the input in ~1 s: about 1 s to go.
    expect(last.etaSeconds).toBeGreaterThan(0.9);
    expect(last.etaSeconds).toBeLessThan(1.2);
  });

  it('emits the final figures on finish, whatever the throttle says, then nothing more', () => {
    const now = 5_000;
    const events: LoadEvent[] = [];
    const r = new ProgressReporter({ emit: (e) => events.push(e), bytesTotal: undefined, now: () => now });
    r.update(p(1, 1));
    r.update(p(2, 2));
    r.finish(p(3, 3));
    r.update(p(4, 4));
    expect(events.map((e) => (e.kind === 'progress' ? e.replies : -1))).toEqual([1, 3]);
  });

  it('keeps the replicas’ lag read after the last event, and takes one reading at the end when a load was quicker than the first', async () => {
    const lag = (lagBytes: number) => ({ replicas: [{ addr: '10.0.0.2:6379', state: 'online', offset: 1, lagBytes, lagSeconds: 1 }], more: 0 });
    let answer!: (s: ReturnType<typeof lag>) => void;
    const slow = new ProgressReporter({
      emit: () => undefined,
      bytesTotal: undefined,
      readReplicas: () => new Promise((resolve) => (answer = resolve)),
    });
    slow.update(p(1, 1));
    slow.finish();
    expect(slow.replicaPeaks).toBeUndefined();
    const settled = slow.settleReplicas();
    answer(lag(4_096));
    await settled;
    expect(slow.replicaPeaks).toEqual([{ addr: '10.0.0.2:6379', maxLagBytes: 4_096, maxLagSeconds: 1 }]);

    let reads = 0;
    const quick = new ProgressReporter({ emit: () => undefined, bytesTotal: undefined, readReplicas: () => Promise.resolve(lag(++reads * 100)) });
    quick.finish(p(5, 5));
    await quick.settleReplicas();
    expect(reads).toBe(1);
    expect(quick.replicaPeaks).toEqual([{ addr: '10.0.0.2:6379', maxLagBytes: 100, maxLagSeconds: 1 }]);

    // A reading that never answers does not hold the report.
    const lost = new ProgressReporter({ emit: () => undefined, bytesTotal: undefined, readReplicas: () => new Promise(() => undefined) });
    const t0 = Date.now();
    await lost.settleReplicas(50);
    expect(Date.now() - t0).toBeLessThan(1_000);
    expect(lost.replicaPeaks).toBeUndefined();
  });
});
