import { afterAll, describe, expect, it } from 'vitest';
import { AudienceLayout } from '../../../../app/schemas/audience';
import { specFor } from '../../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { openRawConnection } from '../../resp/rawConnection';
import { CommandRefused } from '../audienceLink';
import { LayoutKeys } from '../layoutKeys';
import { linkOver } from '../openLink';
import { parseWhere } from '../parseWhere';
import { planOf } from '../plan';
import { Scratch } from '../scratch';
import { bitmapLua } from './bitmapLua';

const redis = useRedis();
afterAll(closeAdmins);

describe('the audience script', () => {
  it('deletes the scratch keys it wrote when a command in it fails, and says which error', async () => {
    const admin = await adminClient(redis());
    await admin.set('attr:a:1', Buffer.from([0xf0]));
    await admin.set('attr:b:1', Buffer.from([0xcc]));
    await admin.sadd('attr:c:1', '1'); // a set where a bitmap belongs: BITOP says WRONGTYPE
    const keys = new LayoutKeys(AudienceLayout.parse({}));
    const scratch = new Scratch(keys);
    // (a OR b) is stored first; the AND with c then fails.
    const env = { keys, plan: planOf(parseWhere('(a=1 OR b=1) AND c=1')), days: ['2024-01-01'], scratch };
    const conn = await openRawConnection(specFor(redis()), 0, { name: 'test' });
    try {
      const run = bitmapLua.run(linkOver(conn, {}, 'in a test'), env);
      await expect(run).rejects.toBeInstanceOf(CommandRefused);
      await expect(run).rejects.toMatchObject({ reply: expect.stringMatching(/^WRONGTYPE/) });
      expect(scratch.all().length).toBeGreaterThan(1);
      expect(await admin.exists(...scratch.all())).toBe(0);
    } finally {
      await conn.close();
    }
  });

  it('answers from bitmaps whose lengths differ (a NOT past the end of the shorter one)', async () => {
    const admin = await adminClient(redis());
    await admin.set('attr:x:1', Buffer.from([0xff, 0xff, 0xff])); // users 0-23
    await admin.set('attr:y:1', Buffer.from([0x0f])); // users 4-7
    await admin.set('active:2024-01-02', Buffer.from([0x00, 0x00, 0x01])); // user 23
    const keys = new LayoutKeys(AudienceLayout.parse({}));
    const env = { keys, plan: planOf(parseWhere('x=1 AND NOT y=1')), days: ['2024-01-02'], scratch: new Scratch(keys) };
    const conn = await openRawConnection(specFor(redis()), 0, { name: 'test' });
    try {
      expect(await bitmapLua.run(linkOver(conn, {}, 'in a test'), env)).toEqual({ size: 20, counts: [1] });
    } finally {
      await conn.close();
    }
  });
});
