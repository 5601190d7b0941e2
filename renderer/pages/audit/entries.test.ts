import { describe, expect, it } from 'vitest';
import { atText, detailText, durationText, filterEntries, OUTCOMES, outcomeCounts, type AuditEntry } from './entries';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  at: '2025-03-01T14:05:09.000Z',
  user: 'local',
  action: 'bgsave',
  target: '127.0.0.1:6379',
  outcome: 'ok',
  ...over,
});

const log: AuditEntry[] = [
  entry({ action: 'monitor', outcome: 'ok', detail: 'watched 12 s', user: 'ana' }),
  entry({ action: 'bulk.swap', outcome: 'failed', target: '10.0.0.5:6380/1', detail: 'WRONGTYPE at data.csv:17' }),
  entry({ action: 'bulk.swap', outcome: 'started', target: '10.0.0.5:6380/1' }),
  entry({ action: 'bgsave', outcome: 'cancelled' }),
];

describe('filterEntries', () => {
  it('keeps the server order and every entry when nothing is asked', () => {
    expect(filterEntries(log, '', 'all')).toEqual(log);
    expect(filterEntries(log, '   ', 'all')).toEqual(log);
  });

  it('needs every word somewhere in the entry, whatever the case', () => {
    expect(filterEntries(log, 'BULK.swap wrongtype', 'all')).toEqual([log[1]]);
    expect(filterEntries(log, '6380/1', 'all')).toEqual([log[1], log[2]]);
    expect(filterEntries(log, 'ana watched', 'all')).toEqual([log[0]]);
    expect(filterEntries(log, 'ana wrongtype', 'all')).toEqual([]);
  });

  it('filters by outcome, alone or with words', () => {
    expect(filterEntries(log, '', 'failed')).toEqual([log[1]]);
    expect(filterEntries(log, 'bgsave', 'cancelled')).toEqual([log[3]]);
    expect(filterEntries(log, 'monitor', 'failed')).toEqual([]);
  });

  it('treats markup and regex characters as plain text', () => {
    const odd = entry({ detail: '<img src=x onerror=alert(1)> .* [a-' });
    expect(filterEntries([odd], '<img', 'all')).toEqual([odd]);
    expect(filterEntries([odd], '.*', 'all')).toEqual([odd]);
    expect(filterEntries([odd], '[a-', 'all')).toEqual([odd]);
  });
});

describe('outcomeCounts', () => {
  it('counts every outcome, zero for the absent ones', () => {
    expect(outcomeCounts(log)).toEqual({ ok: 1, started: 1, failed: 1, cancelled: 1, refused: 0 });
    expect(outcomeCounts([])).toEqual({ ok: 0, started: 0, failed: 0, cancelled: 0, refused: 0 });
    expect(Object.keys(outcomeCounts([]))).toEqual(OUTCOMES);
  });
});

describe('atText', () => {
  it('shows the date and the time to the second in the local zone', () => {
    const d = new Date(2025, 2, 1, 4, 5, 9);
    expect(atText(d.toISOString())).toBe('2025-03-01 04:05:09');
  });

  it('shows text that is not a time as it came', () => {
    expect(atText('yesterday')).toBe('yesterday');
  });
});

describe('detailText and durationText', () => {
  it('writes the figures as people do, after the words', () => {
    const e = entry({ detail: 'status ok', figures: [{ n: 21_755_299, unit: 'bytes' }], durationMs: 3_412 });
    expect(detailText(e)).toBe('status ok, 20.7 MiB');
    expect(durationText(e)).toBe('3.41 s');
    const load = entry({
      detail: 'job1 users.csv, swapped',
      figures: [
        { n: 1_200_000, unit: 'records' },
        { n: 0, unit: 'errors' },
        { n: 75.5, unit: 'seconds' },
      ],
    });
    expect(detailText(load)).toBe('job1 users.csv, swapped, 1,200,000 records, 0 errors, 1m 15s');
    expect(durationText(load)).toBe('');
  });

  it('lets the filter find the formatted text', () => {
    const e = entry({ detail: 'status ok', figures: [{ n: 21_755_299, unit: 'bytes' }] });
    expect(filterEntries([e], '20.7 MiB', 'all')).toEqual([e]);
  });
});
