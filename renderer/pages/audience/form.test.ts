import { describe, expect, it } from 'vitest';
import { AudienceTrialOptions } from '../../../app/schemas/audience';
import { controlOf, DEFAULT_FORM, targetOf, toggleStrategy, toOptions, withDiscoveredRange, type AudienceForm } from './form';
import { CLUSTER_HASH_TAG } from './layout';

const form = (patch: Partial<AudienceForm>): AudienceForm => ({ ...DEFAULT_FORM, from: '2024-01-01', to: '2024-01-30', where: 'gender=f', ...patch });

describe('toOptions', () => {
  it('sends what the contract accepts, the expression exactly as typed', () => {
    const o = toOptions('p1', form({ where: '  gender=f AND age=25-34 ', trials: '5', warmup: '0', db: '2' }));
    expect(o).toEqual({
      profileId: 'p1',
      db: 2,
      where: '  gender=f AND age=25-34 ',
      from: '2024-01-01',
      to: '2024-01-30',
      strategies: ['bitmap-lua', 'bitmap-pipeline', 'sets', 'zunionstore'],
      trials: 5,
      warmup: 0,
    });
    expect(AudienceTrialOptions.safeParse(o).success).toBe(true);
  });

  it('leaves empty numbers out so the contract’s defaults apply', () => {
    const o = toOptions('p1', form({ trials: '', warmup: ' ', db: '' }));
    expect('trials' in o || 'warmup' in o || 'db' in o).toBe(false);
    expect(AudienceTrialOptions.parse(o)).toMatchObject({ trials: 10, warmup: 1 });
  });

  it('sends junk as typed, so the contract names the field in its refusal', () => {
    const parsed = AudienceTrialOptions.safeParse(toOptions('p1', form({ trials: 'ten', from: '2024-02-31', strategies: [] })));
    expect(parsed.success).toBe(false);
    const fields = parsed.error?.issues.map((i) => controlOf(i.path.join('.')));
    expect(fields).toEqual(expect.arrayContaining(['trials', 'from', 'strategies']));
  });
});

describe('targetOf', () => {
  it('adds the hash tag on a cluster only, and the DB when one is typed', () => {
    expect(targetOf({ topology: { kind: 'cluster', seeds: ['10.0.0.1:7000'] } }, { db: '' })).toEqual({ layout: { hashTag: CLUSTER_HASH_TAG } });
    expect(targetOf({}, { db: '3' })).toEqual({ db: 3 });
    // What the page sends must pass the contract.
    const options = AudienceTrialOptions.parse({
      profileId: 'p',
      where: 'a=b',
      from: '2024-01-01',
      to: '2024-01-02',
      ...targetOf({ topology: { kind: 'cluster', seeds: ['h:1'] } }, { db: '' }),
    });
    expect(options.layout.hashTag).toBe(CLUSTER_HASH_TAG);
  });
});

describe('form helpers', () => {
  it('keeps ticked strategies in run order', () => {
    expect(toggleStrategy(['sets'], 'bitmap-lua', true)).toEqual(['bitmap-lua', 'sets']);
    expect(toggleStrategy(['bitmap-lua', 'sets'], 'bitmap-lua', false)).toEqual(['sets']);
  });

  it('fills an empty range from the days the server found, and keeps a typed one', () => {
    const days = { first: '2024-03-01', last: '2024-03-14', count: 14 };
    expect(withDiscoveredRange(DEFAULT_FORM, days)).toMatchObject({ from: '2024-03-01', to: '2024-03-14' });
    expect(withDiscoveredRange({ ...DEFAULT_FORM, to: '2024-03-05' }, days)).toMatchObject({ from: '2024-03-01', to: '2024-03-05' });
    expect(withDiscoveredRange(DEFAULT_FORM, { count: 0 })).toBe(DEFAULT_FORM);
  });

  it('maps server fields to inputs; the profile and unknown fields go to the general error', () => {
    expect(controlOf('strategies.1')).toBe('strategies');
    expect(controlOf('to')).toBe('to');
    expect(controlOf('profileId')).toBeUndefined();
    expect(controlOf(undefined)).toBeUndefined();
  });
});
