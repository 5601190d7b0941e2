import { describe, expect, it } from 'vitest';
import { formFor, type ActionTarget } from './actionForm';
import { commandText, pausedText, reportHeadline, selectionText } from './actionText';
import { testReport } from './actionTestKit';

const target: ActionTarget = { source: 'list', match: 'user:*', matchB64: 'dXNlcjoq', type: undefined, noTtl: false };
const report = (r: Parameters<typeof testReport>[0]) => testReport({ scanned: 500, matched: 120, acted: 100, skipped: 20, seconds: 1.5, ...r });

describe('selectionText', () => {
  it('names the glob and each filter that narrows it', () => {
    expect(selectionText(formFor(target, 'delete'), target)).toBe('user:*');
    const f = { ...formFor(target, 'delete'), type: 'hash' as const, ttl: 'above' as const, ttlSeconds: '3600', idleMin: '90', minMemory: '2048' };
    expect(selectionText(f, target)).toBe('user:* · type hash · TTL > 1h · idle ≥ 1m 30s · memory ≥ 2.00 KiB');
    expect(selectionText({ ...f, ttl: 'none' }, target)).toContain('· no TTL ·');
  });
});

describe('commandText', () => {
  it('says the command each key gets', () => {
    expect(commandText(formFor(target, 'delete'))).toBe('UNLINK');
    expect(commandText(formFor(target, 'persist'))).toBe('PERSIST');
    expect(commandText({ ...formFor(target, 'expire'), seconds: '600', onlyNoTtl: true, jitter: '10' })).toBe('EXPIRE 600 NX, spread ±10 %');
    expect(commandText({ ...formFor(target, 'expire'), seconds: '600', jitter: '0' })).toBe('EXPIRE 600');
  });
});

describe('pausedText', () => {
  it('says why the run waits, with the server’s detail', () => {
    expect(pausedText(null)).toBeUndefined();
    expect(pausedText({ reason: 'replica-lag', detail: '127.0.0.1:7001 is 12 MiB behind' })).toBe(
      'Paused: a replica is lagging behind its master (127.0.0.1:7001 is 12 MiB behind)',
    );
    expect(pausedText({ reason: 'latency', detail: 'p99 +3.1 ms' })).toContain('latency is over the budget');
  });
});

describe('reportHeadline', () => {
  it('says what was done, and for a cancelled run exactly how far it got', () => {
    expect(reportHeadline(report({}), 'done', 'delete')).toBe('100 keys deleted in 1.50 s: 120 matched, 20 skipped, 0 errors.');
    expect(reportHeadline(report({ acted: 1, errors: 1 }), 'cancelled', 'persist')).toBe(
      'Stopped after 1.50 s, with exactly 1 key persisted: 120 matched, 20 skipped, 1 error; 500 of 1,000 keys scanned.',
    );
    expect(reportHeadline(report({}), 'failed', 'expire')).toMatch(/^Failed after 1.50 s, with exactly 100 keys given a TTL:/);
  });
});
