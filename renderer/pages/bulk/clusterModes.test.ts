import { describe, expect, it } from 'vitest';
import type { ProfileView } from '../../../app/schemas/connections';
import { modeOn, modeOptions, modeRefusal, SWAP_ON_CLUSTER } from './clusterModes';
import { EMPTY_TARGET, needsConfirm, toLoadOptions } from './setup';

const cluster: Pick<ProfileView, 'topology'> = { topology: { kind: 'cluster', seeds: ['10.0.1.1:7000'] } };
const sentinel: Pick<ProfileView, 'topology'> = {
  topology: { kind: 'sentinel', sentinels: ['10.0.2.1:26379'], masterName: 'cache', hasSentinelPassword: false },
};
const standalone: Pick<ProfileView, 'topology'> = {};

describe('load modes on a cluster profile', () => {
  it('swap is offered disabled with the reason; flush and merge stay as they are', () => {
    expect(modeOptions(cluster).map((o) => [o.value, o.refused])).toEqual([
      ['swap', SWAP_ON_CLUSTER],
      ['flush', undefined],
      ['merge', undefined],
    ]);
    expect(SWAP_ON_CLUSTER).toContain('SWAPDB is disabled in cluster mode');
  });

  it('standalone and sentinel profiles keep every mode', () => {
    for (const p of [standalone, sentinel, undefined]) {
      expect(modeOptions(p).every((o) => o.refused === undefined)).toBe(true);
      expect(modeRefusal('swap', p)).toBeUndefined();
    }
  });

  it('the default swap becomes merge on a cluster, a chosen flush stays flush and still needs the typed DB', () => {
    expect(modeOn(EMPTY_TARGET.mode, cluster)).toBe('merge');
    expect(modeOn('flush', cluster)).toBe('flush');
    expect(needsConfirm(modeOn('flush', cluster))).toBe(true);
    expect(modeOn('swap', standalone)).toBe('swap');
    expect(modeOn('swap', sentinel)).toBe('swap');
  });

  it('a cluster load started from the default form sends merge and no staging options', () => {
    const t = { ...EMPTY_TARGET, mode: modeOn(EMPTY_TARGET.mode, cluster), targetDb: '0', stagingDb: '3', force: true };
    expect(toLoadOptions('shards', 'f1', '', undefined, t)).toEqual({ profileId: 'shards', fileId: 'f1', mode: 'merge', targetDb: 0 });
  });
});
