import { describe, expect, it } from 'vitest';
import { CallRateLimit } from './callRateLimit';

describe('CallRateLimit', () => {
  it('allows a burst, then the sustained rate, per user', () => {
    let t = 0;
    const r = new CallRateLimit({ perSecond: 10, burst: 5, now: () => t });
    const took = () => Array.from({ length: 8 }, () => r.take('ana')).filter(Boolean).length;
    expect(took()).toBe(5);
    expect(r.take('olga')).toBe(true); // another user has their own bucket
    t = 300; // 3 tokens back
    expect(took()).toBe(3);
    t = 10_000;
    expect(took()).toBe(5); // never more than the burst
  });
});
