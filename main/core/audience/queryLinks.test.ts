import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, clientsNamed, closeAdmins, eventually, useRedis } from '../../../testing/redis';
import { int } from './audienceLink';
import { AudienceQueryLinks, QUERY_CONNECTION_NAME } from './queryLinks';

const redis = useRedis();
let admin: Redis;
beforeAll(async () => {
  admin = await adminClient(redis());
});
afterAll(closeAdmins);

const ids = async () => (await clientsNamed(admin, QUERY_CONNECTION_NAME)).map((l) => /(?:^| )id=(\d+)/.exec(l)?.[1]);
const dbsize = (links: AudienceQueryLinks, spec = specFor(redis()), db = 0) => links.use('p', spec, db, async (t) => int((await t.link.call([['DBSIZE']]))[0]));

describe('the connections kept for audience queries', () => {
  it('are closed once unused for idleMs, and opened again by the next query', async () => {
    const links = new AudienceQueryLinks(100);
    try {
      await dbsize(links);
      const [first] = await ids();
      expect(first).toBeDefined();
      expect(await eventually(async () => (await ids()).length === 0, 2_000)).toBe(true);
      await dbsize(links);
      expect(await ids()).not.toEqual([first]);
    } finally {
      await links.closeAll();
    }
  });

  it('are per DB, and replaced when the profile changed', async () => {
    const links = new AudienceQueryLinks();
    try {
      await dbsize(links);
      await dbsize(links, specFor(redis()), 1);
      const both = await ids();
      expect(both).toHaveLength(2);
      await dbsize(links, specFor(redis(), { name: 'renamed' }));
      expect(await eventually(async () => (await ids()).length === 2 && !(await ids()).every((id) => both.includes(id)))).toBe(true);
    } finally {
      await links.closeAll();
    }
    expect(await eventually(async () => (await ids()).length === 0)).toBe(true);
  });
});
