import { describe, expect, it } from 'vitest';
import { nodeStatus, nodesSummary } from './nodeStatus';

describe('nodeStatus', () => {
  it('reads the status a sample carries, and up=false from an older server as unreachable', () => {
    expect(nodeStatus({ address: 'a:1', at: 0, up: false, status: 'slow' })).toBe('slow');
    expect(nodeStatus({ address: 'a:1', at: 0, up: false })).toBe('unreachable');
    expect(nodeStatus({ address: 'a:1', at: 0, up: true })).toBe('up');
  });
});

describe('nodesSummary', () => {
  it('counts in words that agree with the numbers', () => {
    expect(nodesSummary(1, 0, 0)).toBe('1 node up');
    expect(nodesSummary(3, 0, 0)).toBe('All 3 nodes up');
    expect(nodesSummary(1, 1, 0)).toBe('1 of 1 node unreachable');
    expect(nodesSummary(3, 1, 0)).toBe('1 of 3 nodes unreachable');
    expect(nodesSummary(3, 0, 2)).toBe('2 of 3 nodes slow');
    expect(nodesSummary(3, 1, 1)).toBe('1 of 3 nodes unreachable, 1 slow');
  });
});
