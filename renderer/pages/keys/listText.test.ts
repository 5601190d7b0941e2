import { describe, expect, it } from 'vitest';
import type { ListedKey } from '../../../app/schemas/keys';
import { listStatus, ttlText } from './listText';

const keys = (n: number) =>
  Array.from({ length: n }, (): ListedKey => ({ key: { text: 'k', bytes: 1, truncated: false, b64: 'aw==' }, type: 'string', ttlMs: -1, memory: null }));

describe('listStatus', () => {
  it('says complete with the count', () => {
    expect(listStatus({ keys: keys(42), complete: true, source: 'index', total: 42, loading: false })).toBe('complete: 42 keys');
    expect(listStatus({ keys: keys(1), complete: true, source: 'index', total: 1, loading: false })).toBe('complete: 1 key');
  });

  it('says N of M while pages remain, and where the names come from', () => {
    expect(listStatus({ keys: keys(200), complete: false, source: 'index', total: 1204, loading: false })).toBe('200 of 1,204 listed, more as you scroll');
    expect(listStatus({ keys: keys(200), complete: false, source: 'scan', total: null, loading: false })).toBe(
      '200 listed, more as you scroll · listing by SCAN (no index), in SCAN order',
    );
  });

  it('says nothing before the first page but that it is listing', () => {
    expect(listStatus({ keys: [], complete: false, source: undefined, total: null, loading: true })).toBe('Listing…');
  });
});

describe('ttlText', () => {
  it('tells no TTL from an unknown one', () => {
    expect(ttlText(-1)).toBe('no TTL');
    expect(ttlText(null)).toBe('—');
    expect(ttlText(90_500)).toBe('1m 30s');
  });
});
