import { describe, expect, it } from 'vitest';
import { endedLine, hhmm, monitorLine } from './latencyMonitorText';

const A = '127.0.0.1:6400';

describe('latency monitor line', () => {
  it('says off at 0 and on with the threshold', () => {
    expect(monitorLine({ thresholdMs: 0 }, A)).toBe('Latency monitoring is off (latency-monitor-threshold 0): nothing is recorded.');
    expect(monitorLine({ thresholdMs: 25 }, A)).toBe('Latency monitoring is on: records events over 25 ms.');
  });

  it('never says off when CONFIG GET is refused', () => {
    const line = monitorLine({ restriction: { command: 'CONFIG GET', effect: 'x' } }, A);
    expect(line).toBe('Cannot tell whether latency monitoring is on: CONFIG GET refused.');
  });

  it('says until when, and what it was, for a turn-on on this node only', () => {
    const until = Date.UTC(2026, 0, 1, 12, 0);
    const timed = { address: A, setMs: 10, previousMs: 0, until };
    expect(monitorLine({ thresholdMs: 10, timed }, A)).toBe(`Latency monitoring is on: records events over 10 ms, until ${hhmm(until)} (was 0).`);
    expect(monitorLine({ thresholdMs: 10, timed }, '127.0.0.1:6401')).toBe('Latency monitoring is on: records events over 10 ms.');
  });

  it('says a value changed meanwhile was left alone', () => {
    const ended = { address: A, at: 0, restored: false, foundMs: 77, previousMs: 0 };
    expect(endedLine({ thresholdMs: 77, ended }, A)).toMatch(/was 77, set by someone else meanwhile: left as it is, not put back to 0\.$/);
    expect(endedLine({ thresholdMs: 0, ended: { ...ended, restored: true, foundMs: 10 } }, A)).toMatch(/^Put back to 0 at /);
    expect(endedLine({ thresholdMs: 0 }, A)).toBeUndefined();
    expect(endedLine({ ended: { ...ended, foundMs: undefined, error: 'Connection refused' } }, A)).toMatch(
      /could not be put back to 0 \(Connection refused\): it may still be on\.$/,
    );
  });
});
