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
});
