import { describe, expect, it } from 'vitest';
import type { IndexState } from '../../../app/schemas/keys';
import { indexWords } from './indexText';

const base: IndexState = {
  status: 'building',
  jobId: 'keys_abcd',
  scanned: 412_000,
  total: 1_000_000,
  complete: false,
  names: 'indexed',
  bytes: 3 * 1024 * 1024,
  budgetBytes: 256 * 1024 * 1024,
  deep: false,
  deepDone: 0,
  startedAt: 1,
  finishedAt: null,
  seconds: 4,
  error: null,
  stale: null,
  rechecking: false,
};

describe('indexWords', () => {
  it('states the scan as it grows, with its rate and memory', () => {
    const w = indexWords(base);
    expect(w).toMatchObject({
      badge: 'scanning',
      line: '412,000 of 1,000,000 scanned · 103,000 keys/s',
      memory: '3.00 MiB of 256 MiB budget',
      overBudget: undefined,
    });
    expect(w.fraction).toBeCloseTo(0.412);
  });

  it('never shows a full bar while scanning past a moving DBSIZE', () => {
    expect(indexWords({ ...base, scanned: 1_200_000 }).fraction).toBeLessThan(1);
  });

  it('says complete or incomplete plainly', () => {
    expect(indexWords({ ...base, status: 'ready', complete: true }).badge).toBe('complete');
    const cut = indexWords({ ...base, status: 'cancelled' });
    expect(cut.badge).toBe('incomplete');
    expect(cut.line).toContain('before it was cancelled');
  });

  it('says when names went over budget', () => {
    expect(indexWords({ ...base, names: 'over-budget' }).overBudget).toBe('names over budget: folders list by SCAN');
  });

  it('says how old the shared index is, and what a bulk action left stale', () => {
    const ready = { ...base, status: 'ready' as const, complete: true, finishedAt: 1_000_000 };
    expect(indexWords(ready, 1_000_000 + 754_000).line).toBe('indexed 412,000 keys, 12m 34s ago (scan 4.00 s)');
    expect(indexWords({ ...ready, scanned: 1 }, 1_000_000 + 754_000).line).toBe('indexed 1 key, 12m 34s ago (scan 4.00 s)');
    expect(indexWords({ ...ready, complete: false }, 1_000_000 + 754_000).age).toBe('built 12m 34s ago');
    expect(indexWords({ ...ready, finishedAt: null }).age).toBeUndefined();
    expect(indexWords(base).age).toBeUndefined();
    const note = 'A bulk delete of rate:* ran: checking which keys under rate:* are gone…';
    expect(indexWords({ ...ready, stale: note, rechecking: true }).stale).toBe(note);
    expect(indexWords(ready).stale).toBeUndefined();
  });

  it('states the keep rule, the key changes it followed, and how SCAN COUNT kept under the slowlog threshold', () => {
    const ready = { ...base, status: 'ready' as const, complete: true, finishedAt: 1_000_000, maxAgeMs: 15 * 60_000, expired: false, followed: 0 };
    expect(indexWords(ready).kept).toBe('kept between visits · re-scanned on opening after 15m');
    expect(indexWords({ ...ready, followed: 1234 }).kept).toBe('kept between visits · re-scanned on opening after 15m · 1,234 key changes followed');
    expect(indexWords({ ...ready, expired: true }).kept).toBe('kept between visits · older than 15m: re-scans on next opening');
    expect(indexWords(base).kept).toBeUndefined();
    const scanCount = { slowlogUs: 2000, assumed: false, largestCount: 400, slowestMs: 1.5 };
    expect(indexWords({ ...ready, scanCount }).scanNote).toBe('SCAN COUNT ≤ 400, under slowlog-log-slower-than 2 ms');
    expect(indexWords({ ...ready, scanCount: { ...scanCount, slowlogUs: 10_000, assumed: true } }).scanNote).toBe(
      'SCAN COUNT ≤ 400, under slowlog-log-slower-than 10 ms (assumed: CONFIG GET refused)',
    );
  });
});
