import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ServerMessage } from '../../app/wire';
import { startServe, type ServeProcess } from '../../e2e/serveProcess';
import { adminClient, eventually, useRedis } from '../../testing/redis';
import { addUser } from '../server/auth/users';

/**
 * A real `cacheboard serve` on a profile with no analyst ACL user (REDIS_URL: the analyst
 * reaches Redis as the profile's own user, so nothing at the server stops KEYS), users of both
 * roles, and the console driven by raw WebSocket frames: what a user who skips the page sends.
 */
const redis = useRedis();
let serve: ServeProcess;

beforeAll(async () => {
  serve = await startServe({ REDIS_URL: redis().url }, async (d) => {
    await addUser(join(d, 'users.json'), 'ana', 'analyst', 'pw-ana-1');
    await addUser(join(d, 'users.json'), 'opsy', 'ops', 'pw-opsy-1');
  });
  const admin = await adminClient(redis());
  // Past the guard's KEYS bound (10,000 keys), so KEYS is held for ops.
  for (let i = 0; i < 10_500; i += 3_500) await admin.mset(...Array.from({ length: 3_500 }, (_, j) => [`pop:${i + j}`, 'x']).flat());
  await admin.hset('h', 'f1', 'v1', 'f2', 'v2');
  await admin.set('k', 'v');
}, 60_000);
afterAll(async () => serve?.stop());

/** A signed-in socket: `call` sends one frame and waits for its result frame. */
async function socketOf(username: string, password: string) {
  const res = await fetch(`${serve.url}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  expect(res.status).toBe(200);
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const ws = new WebSocket(`${serve.url.replace('http', 'ws')}/api/ws`, { headers: { cookie } });
  const answers = new Map<string, ServerMessage>();
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as ServerMessage;
    if (m.t === 'result') answers.set(m.id, m);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  let n = 0;
  const call = async (name: string, input: unknown): Promise<Extract<ServerMessage, { t: 'result' }>> => {
    const id = `c${n++}`;
    ws.send(JSON.stringify({ t: 'call', id, name, input }));
    expect(await eventually(() => answers.has(id), 15_000)).toBe(true);
    return answers.get(id) as Extract<ServerMessage, { t: 'result' }>;
  };
  let runs = 0;
  const run = (line: string, confirm?: string) =>
    call('console.run', { profileId: 'env', consoleId: `console-${username}`, runId: `run-${++runs}`, line, ...(confirm === undefined ? {} : { confirm }) });
  return { call, run, close: () => ws.close() };
}

const calls = async (command: string): Promise<number> => {
  const admin = await adminClient(redis());
  return Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(await admin.info('commandstats'))?.[1] ?? 0);
};

describe("an analyst's console on a profile with no analyst ACL user (raw frames)", () => {
  it('refuses KEYS and SORT_RO outright, a confirmation sent up front or not; Redis never sees them; each refusal is audited', async () => {
    const ana = await socketOf('ana', 'pw-ana-1');
    const before = { keys: await calls('keys'), sort: await calls('sort_ro') };
    for (const [line, confirm] of [
      ['KEYS *', 'KEYS'],
      ['KEYS *', undefined],
      ['SORT_RO h', 'SORT_RO'],
    ] as const) {
      const r = await ana.run(line, confirm);
      expect(r, line).toMatchObject({ ok: false, error: { code: 'FORBIDDEN', message: expect.stringContaining('@dangerous') } });
    }
    expect({ keys: await calls('keys'), sort: await calls('sort_ro') }).toEqual(before);
    ana.close();
    const ops = await socketOf('opsy', 'pw-opsy-1');
    const audit = await ops.call('audit.list', { limit: 50 });
    const rows = audit.ok ? (audit.output as { entries: { user: string; action: string; outcome: string; detail?: string }[] }).entries : [];
    const refused = rows.filter((e) => e.user === 'ana' && e.action === 'console' && e.outcome === 'refused').map((e) => e.detail);
    expect(refused).toEqual(expect.arrayContaining([expect.stringMatching(/^KEYS: @dangerous/), expect.stringMatching(/^SORT_RO "h": @dangerous/)]));
    ops.close();
  });

  it('audits every analyst run the server can feel (not an O(1) read), and an ops KEYS confirmed up front', async () => {
    const ana = await socketOf('ana', 'pw-ana-1');
    expect(await ana.run('GET k')).toMatchObject({ ok: true });
    expect(await ana.run('HGETALL h')).toMatchObject({ ok: true });
    expect(await ana.run('SCAN 0 COUNT 10')).toMatchObject({ ok: true });
    ana.close();
    const ops = await socketOf('opsy', 'pw-opsy-1');
    const keys = await ops.run('KEYS pop:1234*', 'KEYS');
    expect(keys).toMatchObject({ ok: true, output: { status: 'done' } });
    const audit = await ops.call('audit.list', { limit: 50 });
    const rows = audit.ok ? (audit.output as { entries: { user: string; action: string; outcome: string; detail?: string }[] }).entries : [];
    const ran = (user: string) => rows.filter((e) => e.user === user && e.action === 'console' && e.outcome === 'ok').map((e) => e.detail);
    expect(ran('ana')).toEqual(expect.arrayContaining(['HGETALL "h"', 'SCAN']));
    expect(ran('ana')).not.toContain('GET "k"');
    expect(ran('opsy')).toContain('KEYS');
    ops.close();
  });
});
