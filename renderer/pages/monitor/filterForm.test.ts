import { describe, expect, it } from 'vitest';
import { MonitorFilter } from '../../../app/schemas/monitor';
import { controlOf, DEFAULT_FILTER, describeFilter, toFilter } from './filterForm';

describe('toFilter', () => {
  it('leaves empty inputs out, so the defaults apply', () => {
    expect(toFilter(DEFAULT_FILTER)).toEqual({ hideOwn: true, sampleEvery: 1 });
    expect(MonitorFilter.parse(toFilter(DEFAULT_FILTER))).toEqual({ hideOwn: true, sampleEvery: 1 });
  });

  it('splits command names on spaces and commas and reads numbers', () => {
    const f = toFilter({ commands: ' get, set  hset', keyGlob: 'user:*', client: ' 10.0.0.7 ', db: '3', sampleEvery: '10', hideOwn: false });
    expect(f).toEqual({ commands: ['get', 'set', 'hset'], keyGlob: 'user:*', client: '10.0.0.7', db: 3, sampleEvery: 10, hideOwn: false });
    expect(MonitorFilter.safeParse(f).success).toBe(true);
  });

  it('sends what is not a number as typed, for the server to name the field', () => {
    const f = toFilter({ ...DEFAULT_FILTER, db: 'two' });
    const r = MonitorFilter.safeParse(f);
    expect(r.success).toBe(false);
    expect(controlOf(`filter.${String(r.error?.issues[0]?.path[0])}`)).toBe('db');
  });
});

describe('controlOf', () => {
  it('maps the contract paths to controls', () => {
    expect(controlOf('filter.keyGlob')).toBe('keyGlob');
    expect(controlOf('filter.commands.2')).toBe('commands');
    expect(controlOf('filter.hideOwn')).toBeUndefined();
    expect(controlOf('address')).toBeUndefined();
    expect(controlOf(undefined)).toBeUndefined();
  });
});

describe('describeFilter', () => {
  it('says the filter in a few words', () => {
    expect(describeFilter({ hideOwn: true })).toBe('own traffic hidden');
    expect(describeFilter({ commands: ['get', 'set'], keyGlob: 'u:*', db: 2, sampleEvery: 5, hideOwn: false })).toBe(
      'GET SET · keys u:* · db 2 · 1 in 5 · own traffic shown',
    );
  });
});
