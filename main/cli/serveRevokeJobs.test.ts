import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../../e2e/serveProcess';
import { runCli } from '../../testing/cli';
import { adminClient, closeAdmins, eventually, useRedis } from '../../testing/redis';
import { addUser } from '../server/auth/users';
import { apiClient, signIn } from './serveApiTestKit';
import { countKeys, fillKeys } from './keyActionsTestKit';

const KEYS = 200_000;
const redis = useRedis();
let serve: ServeProcess;
let admin: Redis;
let port: number;

beforeAll(async () => {
  admin = await adminClient(redis());
  serve = await startServe({ REDIS_URL: redis().url }, async (d) => {
    for (const name of ['leaver', 'demoted', 'watcher']) await addUser(join(d, 'users.json'), name, 'ops', `pw-${name}`);
  });
  port = Number(new URL(serve.url).port);
}, 60_000);
afterAll(async () => {
  await serve?.stop();
  await closeAdmins();
});

const fill = (prefix: string, n: number) => fillKeys(admin, prefix, n);
const count = (glob: string) => countKeys(admin, glob);

type Event = { kind: string };
type Entry = { user: string; action: string; outcome: string; detail?: string };

describe('a job whose user loses the right to it is cancelled, and the audit log says why', () => {
  it.each([
    ['removed', 'leaver', ['remove', 'leaver'], /keyActions job \S+ cancelled: its user "leaver" is no longer in the users file/],
    [
      'demoted below ops',
      'demoted',
      ['add', 'demoted', '--role', 'analyst', '--password-stdin'],
      /cancelled: its user "demoted" is now analyst, and the job needs ops/,
    ],
  ])('a bulk delete started by a user %s stops mid-way', async (_what, name, args, why) => {
    const prefix = `doomed-${name}`;
    await fill(prefix, KEYS);
    const starter = await apiClient(port, await signIn(port, name, `pw-${name}`));
    const watcher = await apiClient(port, await signIn(port, 'watcher', 'pw-watcher'));
    // Its UNLINKs wait (nothing fails) while the user is removed: the job is surely running then, however fast this machine is.
    await admin.client('PAUSE', '20000', 'WRITE');
    let events: () => Event[] = () => [];
    try {
      const { jobId } = (await starter.call('keys.actions.start', {
        profileId: 'env',
        db: 0,
        selection: { match: Buffer.from(`${prefix}:*`).toString('base64') },
        action: { op: 'delete' },
        dryRun: false,
      })) as { jobId: string };
      events = watcher.subscribe('keys.actions.progress', { jobId }) as () => Event[];
      expect(await eventually(() => events().some((e) => e.kind === 'progress'), 20_000)).toBe(true);

      const cli = await runCli(['user', ...args], (child) => child.stdin.end('a-new-pw-9\n'), { CACHEBOARD_DATA_DIR: serve.dataDir, CACHEBOARD_USERS: '' });
      expect(cli.code, cli.err).toBe(0);
      // Cancelled while its writes are held, so nothing it would do after the removal can land first.
      expect(
        await eventually(async () => {
          const { entries } = (await watcher.call('audit.list', { limit: 50 })) as { entries: Entry[] };
          return entries.some((e) => e.action === 'job.revoked' && e.user === name && e.outcome === 'cancelled' && why.test(e.detail ?? ''));
        }, 5_000),
      ).toBe(true);
    } finally {
      await admin.client('UNPAUSE');
    }
    // It ends cancelled, most keys left: before, it went on deleting every one of them.
    expect(await eventually(() => events().some((e) => e.kind !== 'progress' && e.kind !== 'started'), 20_000)).toBe(true);
    expect(events().at(-1)?.kind).toBe('cancelled');
    expect(await count(`${prefix}:*`)).toBeGreaterThan(KEYS / 2);
    starter.close();
    watcher.close();
  });
});
