import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../../e2e/serveProcess';
import { readmeAclLine } from '../../testing/readmeAcl';
import { adminClient, closeAdmins, eventually, startRedis, type RedisProcess } from '../../testing/redis';
import { addUser } from '../server/auth/users';
import { apiClient, signIn } from './serveApiTestKit';

const OPS_PW = 'ops-Secret-6604';
const ANALYST_PW = 'analyst-Secret-2281';
let redis: RedisProcess;
let admin: Redis;
let serve: ServeProcess;
let ops: Awaited<ReturnType<typeof apiClient>>;
let analyst: Awaited<ReturnType<typeof apiClient>>;

beforeAll(async () => {
  redis = await startRedis({ password: OPS_PW });
  admin = await adminClient(redis, { password: OPS_PW });
  await admin.call('ACL', 'SETUSER', ...readmeAclLine(ANALYST_PW));
  serve = await startServe({ CACHEBOARD_SECRET_KEY: 'analyst-access-test-key-00000001' }, async (d) => {
    await addUser(join(d, 'users.json'), 'olga', 'ops', 'pw-olga-1');
    await addUser(join(d, 'users.json'), 'ana', 'analyst', 'pw-ana-1');
  });
  const port = Number(new URL(serve.url).port);
  ops = await apiClient(port, await signIn(port, 'olga', 'pw-olga-1'));
  analyst = await apiClient(port, await signIn(port, 'ana', 'pw-ana-1'));
}, 60_000);
afterAll(async () => {
  ops?.close();
  analyst?.close();
  await serve?.stop();
  await closeAdmins();
  await redis.stop();
});

type View = { id: string; analystAccess: string; analystUsername?: string; hasAnalystPassword: boolean; username?: string };
const server = () => ({ host: '127.0.0.1', port: redis.port, password: OPS_PW });
const listed = async (client: typeof ops) => ((await client.call('connections.list', {})) as { profiles: View[] }).profiles;

describe('analyst access set on a profile added in the UI (raw frames to a real serve)', () => {
  it('with analyst credentials, analysts connect as their own Redis user, never with the ops password', async () => {
    const p = (await ops.call('connections.add', {
      name: 'own',
      ...server(),
      analyst: { access: 'user', username: 'cb-analyst', password: ANALYST_PW },
    })) as View;
    expect(p).toMatchObject({ analystAccess: 'own', analystUsername: 'cb-analyst', hasAnalystPassword: true });
    expect((await listed(analyst)).find((v) => v.id === p.id)).toMatchObject({ analystAccess: 'own', username: 'cb-analyst' });
    expect(await analyst.call('connections.test', { id: p.id })).toMatchObject({ ok: true });
    await analyst.call('server.info', { profileId: p.id });
    // The analyst's pooled connection, seen from the server: the README's ACL user.
    const users = async () =>
      ((await admin.client('LIST')) as string)
        .split('\n')
        .filter((l) => /name=\S*@analyst/.test(l))
        .map((l) => /user=(\S+)/.exec(l)?.[1]);
    expect(await eventually(async () => (await users()).length > 0)).toBe(true);
    expect(new Set(await users())).toEqual(new Set(['cb-analyst']));
  });

  it('"analysts may not use this profile": hidden from analysts, and every call on it refused, whatever frame they send', async () => {
    const p = (await ops.call('connections.add', { name: 'ops only', ...server(), analyst: { access: 'none' } })) as View;
    expect(p.analystAccess).toBe('none');
    expect((await listed(analyst)).map((v) => v.id)).not.toContain(p.id);
    for (const [name, input] of [
      ['connections.test', { id: p.id }],
      ['server.info', { profileId: p.id }],
      ['sampling.start', { profileId: p.id }],
      ['audience.attributes', { profileId: p.id }],
    ] as const) {
      expect(await analyst.result(name, input), name).toMatchObject({
        ok: false,
        error: { code: 'FORBIDDEN', message: expect.stringContaining('analysts may not use it') },
      });
    }
    expect(await ops.call('connections.test', { id: p.id })).toMatchObject({ ok: true });
    // Not even its audience reports (named, or in the whole list).
    expect(await analyst.result('audience.history', { profileId: p.id })).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
  });

  it('without analyst credentials the view says analysts share the ops user; an edit that moves the profile drops the analyst password too', async () => {
    const shared = (await ops.call('connections.add', { name: 'shared', ...server() })) as View;
    expect(shared).toMatchObject({ analystAccess: 'shared', hasAnalystPassword: false });
    const own = (await ops.call('connections.add', {
      name: 'moving',
      ...server(),
      analyst: { access: 'user', username: 'cb-analyst', password: ANALYST_PW },
    })) as View;
    const kept = (await ops.call('connections.update', { id: own.id, profile: { name: 'moving', ...server() } })) as View;
    expect(kept).toMatchObject({ analystAccess: 'own', hasAnalystPassword: true });
    const moved = (await ops.call('connections.update', { id: own.id, profile: { name: 'moving', host: 'localhost', port: redis.port } })) as View;
    expect(moved).toMatchObject({ analystAccess: 'own', hasAnalystPassword: false });
  });

  it('never sends a password in any frame, to ops or to analysts', () => {
    for (const secret of [OPS_PW, ANALYST_PW]) {
      expect(ops.frames()).not.toContain(secret);
      expect(analyst.frames()).not.toContain(secret);
    }
  });
});
