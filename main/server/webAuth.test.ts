import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { contract, type Name } from '../../app/contract';
import type { ServerMessage } from '../../app/wire';
import { upgradeStatus } from '../../testing/http';
import { adminClient, closeAdmins, useRedis } from '../../testing/redis';
import { noSecretBox } from '../core/pool/noSecretBox';
import { createRuntime, type Runtime } from '../runtime';
import { LoginLimiter } from './auth/loginLimiter';
import { SessionStore } from './auth/sessions';
import { addUser, readUsers } from './auth/users';
import { createWebServer } from './webServer';

const redis = useRedis();
const CANARY = 'canary-Pw-7f3e9d1c';
let runtime: Runtime;
let app: FastifyInstance;
let base: string;
let usersFile: string;
const sessions = new SessionStore();

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cb-auth-'));
  usersFile = join(dataDir, 'users.json');
  await addUser(usersFile, 'ana', 'analyst', CANARY);
  await addUser(usersFile, 'olga', 'ops', `${CANARY}-ops`);
  runtime = await createRuntime({ dataDir, secretBox: noSecretBox('no passwords in tests'), redisUrl: redis().url });
  app = await createWebServer({
    version: runtime.version,
    attach: runtime.attach,
    upload: runtime.upload,
    staticDir: join(tmpdir(), 'cacheboard-no-such-dir'),
    auth: {
      kind: 'users',
      users: () => readUsers(usersFile),
      sessions,
      limiter: new LoginLimiter({ freeFailures: 6, baseMs: 60_000 }),
      secure: false,
      maxAgeSeconds: 3600,
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no address');
  base = `127.0.0.1:${addr.port}`;
});

afterAll(async () => {
  await app.close();
  await runtime.close();
  await closeAdmins();
});

async function login(username: unknown, password: unknown): Promise<Response> {
  return fetch(`http://${base}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
}

async function cookieFor(user: string, password: string): Promise<string> {
  const res = await login(user, password);
  expect(res.status).toBe(200);
  const set = res.headers.get('set-cookie') ?? '';
  return set.split(';')[0] ?? '';
}

/** Send one message per contract entry and collect the answers by id. */
async function callEverything(cookie: string): Promise<Map<string, ServerMessage>> {
  const ws = new WebSocket(`ws://${base}/api/ws`, { headers: { cookie } });
  const answers = new Map<string, ServerMessage>();
  ws.on('message', (d) => {
    const m = JSON.parse(String(d)) as ServerMessage;
    if ('id' in m && typeof m.id === 'string' && !answers.has(m.id)) answers.set(m.id, m);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const names = Object.keys(contract) as Name[];
  for (const name of names) {
    const t = contract[name].kind === 'call' ? 'call' : 'sub';
    ws.send(JSON.stringify({ t, id: name, name, input: {} }));
  }
  const deadline = Date.now() + 10_000;
  while (answers.size < names.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  ws.close();
  return answers;
}

const codeOf = (m: ServerMessage | undefined): string | undefined =>
  m === undefined ? undefined : m.t === 'result' && !m.ok ? m.error.code : m.t === 'end' ? m.error?.code : undefined;

describe('web build with users', () => {
  it('says auth is required and refuses the WebSocket without a session, before any Redis command', async () => {
    const admin = await adminClient(redis());
    const before = Number(/total_commands_processed:(\d+)/.exec(await admin.info('stats'))?.[1]);
    expect(await (await fetch(`http://${base}/api/session`)).json()).toEqual({ authRequired: true });
    expect(await upgradeStatus(`ws://${base}/api/ws`, {})).toBe(401);
    expect(await upgradeStatus(`ws://${base}/api/ws`, { cookie: 'cb_session=forged-token' })).toBe(401);
    const upload = await fetch(`http://${base}/api/uploads?name=x.csv`, { method: 'POST', headers: { 'x-cacheboard-upload': '1', 'content-type': 'application/octet-stream' }, body: 'a' });
    expect(upload.status).toBe(401);
    const after = Number(/total_commands_processed:(\d+)/.exec(await admin.info('stats'))?.[1]);
    expect(after - before).toBe(1); // the INFO that read `before`
  });

  it.each([
    ['empty', ''],
    ['whitespace', '   '],
    ['a number', 12345],
    ['null', null],
    ['an object', { toString: 'x' }],
  ])('answers 401 to %s as the password', async (_what, pw) => {
    const res = await login('olga', pw);
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('signs in with an HttpOnly SameSite=Strict cookie, and never echoes the password', async () => {
    const res = await login('ana', CANARY);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({ user: 'ana', role: 'analyst' });
    expect(text).not.toContain(CANARY);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^cb_session=[\w-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=3600$/);
    const me = await fetch(`http://${base}/api/session`, { headers: { cookie: cookie.split(';')[0] ?? '' } });
    expect(await me.json()).toEqual({ authRequired: true, user: 'ana', role: 'analyst' });
  });

  it('refuses every ops call and stream to an analyst, and lets the analyst ones through the role check', async () => {
    const answers = await callEverything(await cookieFor('ana', CANARY));
    for (const [name, def] of Object.entries(contract)) {
      const code = codeOf(answers.get(name));
      if (def.role === 'ops') expect(code, name).toBe('FORBIDDEN');
      else expect(code, name).not.toBe('FORBIDDEN');
      expect(code, name).not.toBe('UNAUTHENTICATED');
    }
  });

  it('lets an ops user through the role check everywhere', async () => {
    const answers = await callEverything(await cookieFor('olga', `${CANARY}-ops`));
    for (const name of Object.keys(contract)) {
      const code = codeOf(answers.get(name));
      expect(code, name).not.toBe('FORBIDDEN');
      expect(code, name).not.toBe('UNAUTHENTICATED');
    }
  });

  it('signing out closes the open WebSocket and ends the session', async () => {
    const cookie = await cookieFor('ana', CANARY);
    const ws = new WebSocket(`ws://${base}/api/ws`, { headers: { cookie } });
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve) => ws.once('open', () => resolve()));
    const out = await fetch(`http://${base}/api/session`, { method: 'DELETE', headers: { cookie } });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect(await closed).toBe(4401);
    expect(await upgradeStatus(`ws://${base}/api/ws`, { cookie })).toBe(401);
  });

  it('backs off after repeated failures for that user, with Retry-After', async () => {
    for (let i = 0; i < 7; i++) expect((await login('victim', `guess-${i}`)).status).toBe(401);
    const locked = await login('victim', 'guess-8');
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await locked.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMITED');
  });
});
