import { afterAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { connectionFor } from '../resp/rawTarget';
import { DEFAULT_LAYOUT } from './audienceTestKit';
import { unknownTerms } from './describeWhere';
import { discoverAttributes } from './discoverAttributes';
import { termsOf } from './expression';
import { LayoutKeys } from './layoutKeys';
import { withLink } from './openLink';
import { parseWhere } from './parseWhere';

const redis = useRedis();
afterAll(closeAdmins);

const keys = new LayoutKeys(DEFAULT_LAYOUT);
const onServer = <T>(fn: Parameters<typeof withLink<T>>[1]) => withLink(connectionFor(specFor(redis()), 0, 'test'), fn);
const ODD_VALUE = '"Lost" & <b>';

describe('attribute discovery', () => {
  it('lists names and values of any text, and counts and names what it cannot list', async () => {
    const admin = await adminClient(redis());
    await admin.setbit('attr:gender:f', 3, 1);
    await admin.sadd('attr:gender:f:set', '3');
    await admin.setbit('attr:home town:Paris', 1, 1);
    await admin.sadd(`attr:show:${ODD_VALUE}:set`, '1', '2');
    await admin.setbit('active:2024-01-02', 1, 1);
    await admin.sadd('active:2024-01-01:set', '1');
    await admin.setbit('users:all', 3, 1);
    await admin.set('attr:orphan', 'x'); // fits no template
    await admin.set('active:yesterday', 'x'); // neither
    await admin.set(Buffer.concat([Buffer.from('attr:bad:'), Buffer.from([0xff, 0xfe])]), 'x'); // not UTF-8

    const a = await onServer((link) => discoverAttributes(link, keys));
    expect(a.attributes).toEqual([
      { name: 'gender', values: [{ value: 'f', layouts: ['bitmap', 'set'], users: 1 }] },
      { name: 'home town', values: [{ value: 'Paris', layouts: ['bitmap'], users: 1 }] },
      { name: 'show', values: [{ value: ODD_VALUE, layouts: ['set'], users: 2 }] },
    ]);
    expect(a.days).toEqual({ first: '2024-01-01', last: '2024-01-02', count: 2 });
    expect(a.skipped).toBe(3);
    expect(a.warnings).toEqual([
      expect.stringMatching(
        /^2 keys under attr:, active: fitting no template of the layout; not listed \(e\.g\. (attr:orphan, active:yesterday|active:yesterday, attr:orphan)\)$/,
      ),
      expect.stringMatching(/^1 key whose name is not UTF-8 text, which no expression can name; not listed \(e\.g\. attr:bad:\uFFFD\uFFFD\)$/),
    ]);

    // A listed value that is no plain word is reached by quoting it.
    const terms = termsOf(parseWhere(`show=${JSON.stringify(ODD_VALUE)} AND gender=f`));
    expect(terms.map((t) => t.value)).toEqual([ODD_VALUE, 'f']);
    expect(await onServer((link) => unknownTerms(link, keys, terms))).toEqual([]);
  });
});
