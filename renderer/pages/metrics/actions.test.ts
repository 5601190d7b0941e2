import { describe, expect, it } from 'vitest';
import { describeResult, isOkStatus, latestSummary, type ActionResult } from './actions';

const MiB = 1024 * 1024;
const r = (action: ActionResult['action'], startedAt: number, seconds: number, size?: number): ActionResult => ({
  action,
  address: 'm:1',
  startedAt,
  seconds,
  status: 'ok',
  ...(size === undefined ? {} : { sizeBytes: size }),
});

describe('ops actions', () => {
  it('describes one result with its duration and file size', () => {
    expect(describeResult(r('bgsave', 1, 4.1, 158 * MiB))).toBe('BGSAVE 4.1 s, 158 MiB');
    expect(describeResult(r('bgrewriteaof', 1, 10.24))).toBe('AOF rewrite 10.2 s');
  });

  it('summarises the newest result of each action', () => {
    const s = latestSummary([r('bgsave', 1, 9), r('bgrewriteaof', 2, 10.2, 440 * MiB), r('bgsave', 3, 4.1, 158 * MiB)]);
    expect(s).toBe('BGSAVE 4.1 s, 158 MiB · AOF rewrite 10.2 s, 440 MiB');
    expect(latestSummary([])).toBe('');
  });

  it('reads INFO statuses', () => {
    expect(isOkStatus('ok')).toBe(true);
    expect(isOkStatus('err')).toBe(false);
  });
});
