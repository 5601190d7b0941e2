import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRATEGY_NAMES } from '../../../app/schemas/audience';
import { demoInto, demoRecords, hasInterest as has, scratchLeft } from '../../core/audience/audienceTestKit';
import { QUERY_CONNECTION_NAME } from '../../core/audience/queryLinks';
import { specFor } from '../../../testing/profiles';
import { adminClient, clientsNamed, closeAdmins, eventually, useRedis } from '../../../testing/redis';
import { audienceRpc, type AudienceRpc } from './audienceRpcTestKit';

const SHAPE = { users: 2_000, days: 10, seed: 5, start: '2024-01-01' };
const { days: DAYS, expected } = demoRecords(SHAPE);
const RANGE = { from: '2024-01-01', to: '2024-01-10' };
const WHERE = 'gender=f AND (region=NE OR region=MA) AND NOT interest:golf';
const want = expected((u) => u.attrs.gender === 'f' && (u.attrs.region === 'NE' || u.attrs.region === 'MA') && !has(u, 'golf'));

const redis = useRedis();
let rpc: AudienceRpc;
let admin: Redis;
const query = (input: Record<string, unknown>) => rpc.as('analyst').invoke('audience.query', { profileId: 'local', where: WHERE, ...RANGE, ...input });

beforeAll(async () => {
  admin = await adminClient(redis());
  expect((await demoInto(redis(), SHAPE)).final.kind).toBe('done');
  rpc = audienceRpc([{ id: 'local', source: 'config', spec: specFor(redis()) }]);
});
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
});

/** CLIENT LIST ids of the kept query connections. */
const queryClients = async () => (await clientsNamed(admin, QUERY_CONNECTION_NAME)).map((l) => /(?:^| )id=(\d+)/.exec(l)?.[1]);

describe('audience.query', () => {
  it('answers at once with the fastest strategy, as the records say, leaving no scratch key', async () => {
    expect(want.size).toBeGreaterThan(0);
    const r = await query({});
    expect(r).toEqual({ audienceSize: want.size, days: want.days, strategy: 'bitmap-lua', ms: expect.any(Number), warnings: [] });
    expect(r.ms).toBeGreaterThan(0);
    expect(await scratchLeft(admin)).toEqual([]);
  });

  it('gives the same answer with each strategy asked for, OR and NOT included', async () => {
    const where = 'region=SA OR region=PAC OR NOT interest:news';
    const or = expected((u) => u.attrs.region === 'SA' || u.attrs.region === 'PAC' || !has(u, 'news'));
    for (const strategy of STRATEGY_NAMES) {
      expect(await query({ where, strategy })).toMatchObject({ strategy, audienceSize: or.size, days: or.days });
    }
    expect(await scratchLeft(admin)).toEqual([]);
  });

  it('names the command the server refused while checking the layouts (NOPERM on EXISTS), not "failed unexpectedly"', async () => {
    await admin.call('ACL', 'SETUSER', 'noexists', 'on', '>pw', '~*', '+@all', '-exists');
    const limited = audienceRpc([{ id: 'limited', source: 'config', spec: specFor(redis(), { username: 'noexists', password: 'pw' }) }]);
    try {
      await expect(limited.as('analyst').invoke('audience.query', { profileId: 'limited', where: WHERE, ...RANGE })).rejects.toMatchObject({
        code: 'NOPERM',
        message: expect.stringMatching(/^the audience could not be checked here: EXISTS was refused: NOPERM/),
      });
    } finally {
      await limited.close();
    }
  });

  it('keeps one connection per profile and DB: repeated queries pay no connect', async () => {
    await query({});
    const before = await queryClients();
    expect(before).toHaveLength(1);
    await Promise.all([query({}), query({ strategy: 'sets' }), query({ where: 'age=25-34', from: '2024-01-03', to: '2024-01-04' })]);
    expect(await queryClients()).toEqual(before);
  });

  it('opens a new connection after the server dropped the kept one', async () => {
    const [id] = await queryClients();
    await admin.client('KILL', 'ID', String(id));
    // The close reaches the kept socket, which is then forgotten.
    expect(await eventually(async () => (await queryClients()).length === 0)).toBe(true);
    await new Promise((r) => setTimeout(r, 50));
    expect(await query({})).toMatchObject({ audienceSize: want.size });
    const after = await queryClients();
    expect(after).toHaveLength(1);
    expect(after[0]).not.toBe(id);
  });

  it('passes over a strategy whose layout is missing, and says so; refuses one asked for by name', async () => {
    const layout = { bitmapAttr: 'nobm:{name}:{value}', bitmapActive: 'nobm:{day}', bitmapAll: 'nobm:all' };
    const r = await query({ layout });
    expect(r).toMatchObject({ strategy: 'sets', audienceSize: want.size, days: want.days });
    expect(r.warnings).toEqual([
      expect.stringMatching(/^bitmap-lua could not answer here: no bitmap keys for the expression \(e\.g\. nobm:gender:f\)/),
      expect.stringMatching(/^bitmap-pipeline could not answer here: no bitmap keys/),
    ]);
    await expect(query({ layout, strategy: 'bitmap-lua' })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'strategy',
      message: expect.stringContaining('no bitmap keys'),
    });
  });

  it('counts a range past the data as 0 on the days without activity', async () => {
    const r = await query({ where: 'age=35-44', from: '2024-01-09', to: '2024-01-12' });
    const age = expected((u) => u.attrs.age === '35-44', DAYS.slice(8));
    expect(r.days).toEqual([...age.days, { day: '2024-01-11', count: 0 }, { day: '2024-01-12', count: 0 }]);
  });

  it('refuses bad input by field', async () => {
    await expect(query({ where: 'gender=f AND (' })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'where',
      message: expect.stringContaining('column 15'),
    });
    await expect(query({ where: 'gender=x' })).rejects.toMatchObject({
      code: 'VALIDATION',
      field: 'where',
      message: expect.stringContaining('unknown attribute gender=x'),
    });
    await expect(query({ to: '2027-01-02' })).rejects.toMatchObject({ code: 'VALIDATION', field: 'to' });
    await expect(query({ strategy: 'fastest' })).rejects.toMatchObject({ code: 'VALIDATION', field: 'strategy' });
    await expect(query({ layout: { scratchPrefix: 'attr:x:' } })).rejects.toMatchObject({ code: 'VALIDATION', field: 'layout.scratchPrefix' });
    await expect(query({ profileId: 'ghost' })).rejects.toMatchObject({ code: 'NOT_FOUND', field: 'profileId' });
  });
});
