import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, useRedis } from '../../../../testing/redis';
import { demoInto } from '../audienceTestKit';
import { demoAttributeValues, demoDays, demoUsers, type DemoUser } from './tvAudience';

const SHAPE = { users: 800, days: 6, seed: 5, start: '2024-03-30' };
const redis = useRedis();
const admins: Redis[] = [];
const db = (n: number) => admins[n] as Redis;
beforeAll(async () => {
  for (let n = 0; n < 4; n++) admins.push(await adminClient(redis(), { db: n }));
});
afterAll(closeAdmins);

/** Every key of a DB with its content in a comparable form. */
async function contents(r: Redis): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const key of await r.keys('*')) {
    const type = await r.type(key);
    if (type === 'string') out.set(key, (await r.getBuffer(key))?.toString('hex') ?? '');
    else if (type === 'set')
      out.set(
        key,
        (await r.smembers(key))
          .map(Number)
          .sort((a, b) => a - b)
          .join(','),
      );
    else out.set(key, (await r.zrange(key, 0, -1, 'WITHSCORES')).join(','));
  }
  return out;
}

function holders(users: DemoUser[], name: string, value: string): DemoUser[] {
  return users.filter((u) => (name === 'interest' ? u.interests.includes(value) : u.attrs[name as keyof DemoUser['attrs']] === value));
}

describe('the demo dataset', () => {
  it('is the same for the same seed and differs for another', async () => {
    expect((await demoInto(redis(), SHAPE, 1)).final.kind).toBe('done');
    expect((await demoInto(redis(), SHAPE, 2)).final.kind).toBe('done');
    const [one, two] = [await contents(db(1)), await contents(db(2))];
    expect(one.size).toBeGreaterThan(SHAPE.users / 2);
    expect(two).toEqual(one);
    expect((await demoInto(redis(), { ...SHAPE, seed: 6 }, 3)).final.kind).toBe('done');
    expect(await contents(db(3))).not.toEqual(one);
  });

  it('holds what the generated records say, in all three layouts', async () => {
    const users = [...demoUsers(SHAPE)];
    const r = db(1);
    for (const { name, value } of demoAttributeValues()) {
      const ids = holders(users, name, value).map((u) => u.id);
      expect([name, value, await r.bitcount(`attr:${name}:${value}`)]).toEqual([name, value, ids.length]);
      if (ids.length > 0) expect((await r.smembers(`attr:${name}:${value}:set`)).map(Number).sort((a, b) => a - b)).toEqual(ids);
    }
    const days = demoDays(SHAPE);
    expect(days.at(-1)).toBe('2024-04-04');
    for (const [i, day] of days.entries()) {
      const ids = users.filter((u) => u.activeDays.includes(i)).map((u) => u.id);
      expect(await r.bitcount(`active:${day}`)).toBe(ids.length);
      expect(await r.scard(`active:${day}:set`)).toBe(ids.length);
      // Bit n is user n, counted from the most significant bit of the first byte (GETBIT's order).
      expect(await r.getbit(`active:${day}`, ids[0] as number)).toBe(1);
    }
    expect(await r.bitcount('users:all')).toBe(SHAPE.users);
    expect(await r.scard('users:all:set')).toBe(SHAPE.users);
    for (const u of users.slice(0, 50)) {
      expect(await r.zrange(`user:${u.id}:days`, 0, -1)).toEqual(u.activeDays.map((i) => days[i]));
    }
  });

  it('refuses a DB that holds keys, and with overwrite replaces its sets instead of merging into them', async () => {
    const again = await demoInto(redis(), { ...SHAPE, seed: 9 }, 1);
    expect(again.final).toMatchObject({ kind: 'failed', error: { code: 'CONFLICT', message: expect.stringContaining('db 1 holds') } });
    const replaced = await demoInto(redis(), { ...SHAPE, seed: 6, overwrite: true }, 1);
    expect(replaced.final.kind).toBe('done');
    expect(await contents(db(1))).toEqual(await contents(db(3)));
  });

  it('reports progress in users and a report of what it wrote', async () => {
    await db(0).flushdb();
    const { final, events } = await demoInto(redis(), { ...SHAPE, layouts: ['bitmap'] }, 0);
    expect(events[0]).toMatchObject({ kind: 'started', users: SHAPE.users, total: SHAPE.users, layouts: ['bitmap'] });
    expect(final).toMatchObject({
      kind: 'done',
      report: { users: 800, days: 6, first: '2024-03-30', last: '2024-04-04', keys: demoAttributeValues().length + SHAPE.days + 1 },
    });
    expect(await db(0).dbsize()).toBe(demoAttributeValues().length + SHAPE.days + 1);
  });
});
