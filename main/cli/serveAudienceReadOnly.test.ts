import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../../e2e/serveProcess';
import { adminClient, closeAdmins, eventually, useRedis } from '../../testing/redis';
import { demoInto, demoRecords } from '../core/audience/audienceTestKit';
import { apiClient, signIn } from './serveApiTestKit';
import { addUser } from '../server/auth/users';

const SHAPE = { users: 1_500, days: 7, seed: 3, start: '2024-01-01' };
const RANGE = { from: '2024-01-01', to: '2024-01-07' };
const redis = useRedis();
let admin: Redis;
let serve: ServeProcess;
let analyst: Awaited<ReturnType<typeof apiClient>>;

beforeAll(async () => {
  admin = await adminClient(redis());
  expect((await demoInto(redis(), SHAPE)).final.kind).toBe('done');
  serve = await startServe({ REDIS_URL: redis().url }, (d) => addUser(join(d, 'users.json'), 'ana', 'analyst', 'pw-ana-5190'));
  const port = Number(new URL(serve.url).port);
  analyst = await apiClient(port, await signIn(port, 'ana', 'pw-ana-5190'));
}, 60_000);
afterAll(async () => {
  analyst?.close();
  await serve?.stop();
  await closeAdmins();
});

/** Writes the server has taken since start-up (it never saves: `save ""`): any SET, BITOP, DEL or EXPIRE counts. */
async function writes(): Promise<number> {
  return Number(/rdb_changes_since_last_save:(\d+)/.exec(await admin.info('persistence'))?.[1]);
}

type Event = { kind: string; skipped?: { name: string; reason: string }[]; strategies?: string[]; report?: { audienceSize: number } };

describe("an analyst's audience trial, in raw WebSocket frames to a real serve", () => {
  it('is refused before it starts, with the reason on the expression, when every strategy would store scratch keys', async () => {
    const before = await writes();
    const r = await analyst.result('audience.start', { profileId: 'env', where: 'gender=f OR region=NE', ...RANGE, trials: 1 });
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'FORBIDDEN', field: 'where', message: expect.stringMatching(/^An analyst's trial only reads.*sets: an analyst's trial only reads/) },
    });
    // Asked for strategies that all write, whatever the expression: refused on the strategies.
    const chosen = await analyst.result('audience.start', { profileId: 'env', where: 'gender=f', ...RANGE, strategies: ['bitmap-lua', 'zunionstore'] });
    expect(chosen).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', field: 'strategies' } });
    expect(await writes()).toBe(before);
  });

  it('is refused before it starts when the data it would read is not there', async () => {
    const layout = { setAttr: 'none:{name}:{value}:set', setActive: 'none:{day}:set', setAll: 'none:all:set' };
    const r = await analyst.result('audience.start', { profileId: 'env', where: 'gender=f AND region=NE', ...RANGE, layout, strategies: ['sets'] });
    expect(r).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', message: expect.stringContaining('sets: no set keys for the expression') } });
  });

  it('runs read-only otherwise: sets counts in place, the others are skipped from the start, and the server takes no write', async () => {
    const before = await writes();
    const { jobId } = (await analyst.call('audience.start', { profileId: 'env', where: 'gender=m AND region=NE', ...RANGE, trials: 2 })) as { jobId: string };
    const events = analyst.subscribe('audience.progress', { jobId }) as () => Event[];
    expect(await eventually(() => events().some((e) => e.kind === 'done' || e.kind === 'failed' || e.kind === 'cancelled'), 20_000)).toBe(true);
    const started = events().find((e) => e.kind === 'started');
    expect(started?.strategies).toEqual(['sets']);
    expect(started?.skipped?.map((s) => [s.name, s.reason])).toEqual(
      ['bitmap-lua', 'bitmap-pipeline', 'zunionstore'].map((n) => [
        n,
        "an analyst's trial only reads, and this strategy would store scratch keys for this audience",
      ]),
    );
    const want = demoRecords(SHAPE).expected((u) => u.attrs.gender === 'm' && u.attrs.region === 'NE');
    expect(events().at(-1)).toMatchObject({ kind: 'done', report: { audienceSize: want.size } });
    expect(await writes()).toBe(before);
  });
});
