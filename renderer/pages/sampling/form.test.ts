import { describe, expect, it } from 'vitest';
import { controlOf, dbOf, DEFAULT_FORM, toOptions } from './form';

describe('toOptions', () => {
  it('sends a sample with its count and leaves the census inputs out', () => {
    expect(toOptions('p1', { ...DEFAULT_FORM, match: 'user:*', scanCount: '500' })).toEqual({
      profileId: 'p1',
      method: 'sample',
      samples: 10000,
      pauseMs: 0,
      memorySamples: 5,
    });
  });

  it('sends a census with MATCH and COUNT, and the DB when one is typed', () => {
    expect(toOptions('p1', { ...DEFAULT_FORM, method: 'census', db: '3', match: 'user:*', scanCount: '500', pauseMs: '20' })).toEqual({
      profileId: 'p1',
      method: 'census',
      db: 3,
      match: 'user:*',
      scanCount: 500,
      pauseMs: 20,
      memorySamples: 5,
    });
  });

  it('leaves empty inputs out and sends junk as typed for the server to name', () => {
    const o = toOptions('p1', { ...DEFAULT_FORM, samples: '', memorySamples: 'lots' });
    expect('samples' in o).toBe(false);
    expect(o.memorySamples).toBe('lots');
  });
});

describe('form helpers', () => {
  it('maps server fields to inputs', () => {
    expect(controlOf('match')).toBe('match');
    expect(controlOf('profileId')).toBeUndefined();
    expect(controlOf(undefined)).toBeUndefined();
  });

  it("reads the profile's DB when none is typed", () => {
    expect(dbOf(DEFAULT_FORM, 2)).toBe(2);
    expect(dbOf({ ...DEFAULT_FORM, db: '5' }, 2)).toBe(5);
    expect(dbOf({ ...DEFAULT_FORM, db: 'x' }, 2)).toBe(2);
  });
});
