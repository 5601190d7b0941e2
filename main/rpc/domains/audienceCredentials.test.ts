import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoRecords } from '../../core/audience/audienceTestKit';
import { QUERY_CONNECTION_NAME } from '../../core/audience/queryLinks';
import { specFor } from '../../../testing/profiles';
import { readmeAclLine } from '../../../testing/readmeAcl';
import { adminClient, clientsNamed, closeAdmins, useRedis } from '../../../testing/redis';
import { audienceRpc, follow, type AudienceRpc } from './audienceRpcTestKit';

const OPS_PW = 'ops-Secret-4417';
const ANALYST_PW = 'analyst-Secret-8826';
const SHAPE = { users: 1_500, days: 7, seed: 2, start: '2024-01-01' };
const RANGE = { from: '2024-01-01', to: '2024-01-07' };
const WHERE = 'gender=m AND region=NE';
const want = demoRecords(SHAPE).expected((u) => u.attrs.gender === 'm' && u.attrs.region === 'NE');

const redis = useRedis({ password: OPS_PW });
let rpc: AudienceRpc;
let admin: Redis;

beforeAll(async () => {
  admin = await adminClient(redis(), { password: OPS_PW });
  await admin.call('ACL', 'SETUSER', ...readmeAclLine(ANALYST_PW));
  const spec = specFor(redis(), { password: OPS_PW });
  rpc = audienceRpc([
    { id: 'acl', source: 'config', spec, analyst: { username: 'cb-analyst', password: ANALYST_PW } },
    { id: 'wrong', source: 'config', spec, analyst: { username: 'cb-analyst', password: 'not-the-password' } },
  ]);
  // Demo data is an ops job, written with the profile's own user: the analyst's may not write data keys.
  const { jobId } = await rpc.as('ops').invoke('audience.demoData', { profileId: 'acl', ...SHAPE });
  expect((await follow(rpc.as('ops'), 'audience.demoProgress', jobId)).events.at(-1)?.kind).toBe('done');
});
afterAll(async () => {
  await rpc.close();
  await closeAdmins();
});

/** The Redis user of each connection named `name` (CLIENT SETNAME). */
async function usersOf(name: string): Promise<string[]> {
  return (await clientsNamed(admin, name)).map((l) => /(?:^| )user=(\S+)/.exec(l)?.[1] ?? '?').sort();
}

describe("a profile with analyst credentials, on the README's analyst ACL", () => {
  it("runs an analyst's trial as the analyst user, reading only: sets counts in place, the strategies that store scratch keys are skipped", async () => {
    const { jobId } = await rpc.as('analyst').invoke('audience.start', { profileId: 'acl', where: WHERE, ...RANGE, trials: 2 });
    const end = (await follow(rpc.as('analyst'), 'audience.progress', jobId)).events.at(-1);
    if (end?.kind !== 'done') throw new Error(`trial ended ${JSON.stringify(end)}`);
    const skipped = Object.fromEntries(end.report.strategies.map((s) => [s.name, s.skipped]));
    const readOnly = expect.stringMatching(/^an analyst's trial only reads/);
    expect(skipped).toEqual({ 'bitmap-lua': readOnly, 'bitmap-pipeline': readOnly, sets: undefined, zunionstore: readOnly });
    expect({ size: end.report.audienceSize, days: end.report.days, match: end.report.countsMatch }).toEqual({ ...want, match: true });
  });

  it("answers an analyst's query as the analyst user with bitmap-pipeline, saying why not bitmap-lua; ops' as the default user", async () => {
    const a = await rpc.as('analyst').invoke('audience.query', { profileId: 'acl', where: WHERE, ...RANGE });
    expect(a).toMatchObject({ strategy: 'bitmap-pipeline', audienceSize: want.size, days: want.days });
    expect(a.warnings).toEqual([expect.stringMatching(/^bitmap-lua could not answer here: EVALSHA was refused: NOPERM/)]);
    expect(await usersOf(QUERY_CONNECTION_NAME)).toEqual(['cb-analyst']);
    await expect(rpc.as('analyst').invoke('audience.query', { profileId: 'acl', where: WHERE, ...RANGE, strategy: 'bitmap-lua' })).rejects.toMatchObject({
      code: 'NOPERM',
      field: 'strategy',
    });

    const o = await rpc.as('ops').invoke('audience.query', { profileId: 'acl', where: WHERE, ...RANGE });
    expect(o).toMatchObject({ strategy: 'bitmap-lua', audienceSize: want.size, warnings: [] });
    expect(await usersOf(QUERY_CONNECTION_NAME)).toEqual(['cb-analyst', 'default']);
  });

  it("signs every analyst call in with the analyst's credentials (a wrong analyst password fails them all; ops' still work)", async () => {
    const analyst = rpc.as('analyst');
    const refused = { code: 'AUTH_FAILED' };
    await expect(analyst.invoke('audience.attributes', { profileId: 'wrong' })).rejects.toMatchObject(refused);
    await expect(analyst.invoke('audience.parse', { profileId: 'wrong', where: WHERE })).rejects.toMatchObject(refused);
    await expect(analyst.invoke('audience.query', { profileId: 'wrong', where: WHERE, ...RANGE })).rejects.toMatchObject(refused);
    // An analyst's trial is checked on the server before it starts: the login fails there, not in a job.
    await expect(analyst.invoke('audience.start', { profileId: 'wrong', where: WHERE, ...RANGE })).rejects.toMatchObject(refused);

    const attributes = await rpc.as('ops').invoke('audience.attributes', { profileId: 'wrong' });
    expect(attributes.attributes.map((x) => x.name)).toEqual(['age', 'gender', 'income', 'interest', 'region']);
    await expect(rpc.as('ops').invoke('audience.query', { profileId: 'wrong', where: WHERE, ...RANGE })).resolves.toMatchObject({ audienceSize: want.size });
  });
});
