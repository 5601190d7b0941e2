import { describe, expect, it } from 'vitest';
import type { ProfileView } from '../../app/schemas/connections';
import { profileGroups, TAG_FILTER_FROM } from './profileGroups';

const profile = (i: number, tags?: string[]): ProfileView => ({ id: `p${i}`, name: `profile ${i}`, ...(tags === undefined ? {} : { tags }) }) as ProfileView;

describe('profileGroups', () => {
  it('keeps a short list, or one without tags, as one group in its order', () => {
    const short = [profile(1, ['prod']), profile(2)];
    expect(profileGroups(short)).toEqual([{ tag: undefined, profiles: short }]);
    const untagged = Array.from({ length: TAG_FILTER_FROM + 2 }, (_, i) => profile(i));
    expect(profileGroups(untagged)).toEqual([{ tag: undefined, profiles: untagged }]);
  });

  it('groups a long list by each profile’s first tag, tags in order, the untagged last, each profile once', () => {
    const list = [
      profile(0, ['staging']),
      profile(1, ['prod', 'staging']),
      profile(2),
      profile(3, ['prod']),
      profile(4, ['eu']),
      profile(5, ['staging']),
      profile(6),
    ];
    const groups = profileGroups(list);
    expect(groups.map((g) => [g.tag, g.profiles.map((p) => p.id)])).toEqual([
      ['eu', ['p4']],
      ['prod', ['p1', 'p3']],
      ['staging', ['p0', 'p5']],
      [undefined, ['p2', 'p6']],
    ]);
    expect(groups.flatMap((g) => g.profiles)).toHaveLength(list.length);
  });
});
