import { describe, expect, it } from 'vitest';
import { AudienceLayout, AudienceTrialOptions } from '../../../app/schemas/audience';
import { CLUSTER_HASH_TAG, DEFAULT_LAYOUT, isDefaultLayout, layoutErrors, layoutInput, parseStoredLayout } from './layout';

const standalone = {};
const cluster = { topology: { kind: 'cluster' as const, seeds: ['10.0.0.1:7000'] } };

describe('layoutInput', () => {
  it('sends nothing for the default layout, and only the changed templates otherwise', () => {
    expect(layoutInput(standalone, DEFAULT_LAYOUT)).toBeUndefined();
    expect(isDefaultLayout(DEFAULT_LAYOUT)).toBe(true);
    const mine = { ...DEFAULT_LAYOUT, bitmapAttr: 'seg:{name}:{value}:bm', bitmapActive: 'seen:{day}' };
    expect(layoutInput(standalone, mine)).toEqual({ bitmapAttr: 'seg:{name}:{value}:bm', bitmapActive: 'seen:{day}' });
    expect(isDefaultLayout(mine)).toBe(false);
    // The server fills in the rest with the same defaults the inputs show.
    expect(AudienceLayout.parse(layoutInput(standalone, mine))).toEqual({
      ...AudienceLayout.parse({}),
      bitmapAttr: 'seg:{name}:{value}:bm',
      bitmapActive: 'seen:{day}',
    });
  });

  it('adds the page’s hash tag on a cluster unless one is typed, and passes the contract', () => {
    expect(layoutInput(cluster, DEFAULT_LAYOUT)).toEqual({ hashTag: CLUSTER_HASH_TAG });
    expect(layoutInput(cluster, { ...DEFAULT_LAYOUT, hashTag: ' tv ' })).toEqual({ hashTag: 'tv' });
    const options = AudienceTrialOptions.parse({
      profileId: 'p',
      where: 'a=b',
      from: '2024-01-01',
      to: '2024-01-02',
      layout: layoutInput(cluster, DEFAULT_LAYOUT),
    });
    expect(options.layout.hashTag).toBe(CLUSTER_HASH_TAG);
  });
});

describe('layoutErrors', () => {
  it('names each input the contract refuses, with its message', () => {
    expect(layoutErrors(standalone, DEFAULT_LAYOUT)).toEqual({});
    const errors = layoutErrors(standalone, {
      ...DEFAULT_LAYOUT,
      bitmapAttr: 'attr:{name}',
      setActive: 'act ive:{day}',
      hashTag: 'no spaces',
      scratchPrefix: 'x',
    });
    expect(Object.keys(errors).sort()).toEqual(['bitmapAttr', 'hashTag', 'scratchPrefix', 'setActive']);
    expect(errors.bitmapAttr).toMatch(/\{name\} and \{value\}/);
    expect(errors.scratchPrefix).toMatch(/at least 3/);
  });
});

describe('parseStoredLayout', () => {
  it('reads back what was kept, fills what an older page did not keep, and refuses junk', () => {
    const mine = { ...DEFAULT_LAYOUT, bitmapActive: 'seen:{day}' };
    expect(parseStoredLayout(JSON.parse(JSON.stringify(mine)))).toEqual(mine);
    expect(parseStoredLayout({ bitmapAll: 'everyone' })).toEqual({ ...DEFAULT_LAYOUT, bitmapAll: 'everyone' });
    for (const junk of [null, 'attr', 7, { bitmapAll: 3 }, { setAll: 'x'.repeat(301) }]) expect(parseStoredLayout(junk)).toBeUndefined();
  });
});
