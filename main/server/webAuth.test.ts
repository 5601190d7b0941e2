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
import { watchUsers } from './auth/userDirectory';
import { addUser } from './auth/users';
import { createWebServer } from './webServer';

const redis = useRedis();
const CANARY = 'canary-Pw-7f3e9d1c';
let runtime: Runtime;
let base: string;
let usersFile: string;
const sessions = new SessionStore();
const servers: FastifyInstance[] = [];

/** A web server on a free port with these users, limiter and proxies; closed after the file. */
async function serveWith(o: { limiter: LoginLimiter; trustedProxies?: string[] }): Promise<{ app: FastifyInstance; base: string }> {
  const server = await createWebServer({
    version: runtime.version,
    attach: runtime.attach,
    upload: runtime.upload,
    staticDir: join(tmpdir(), 'cacheboard-no-such-dir'),
    auth: {
      kind: 'users',
      // Stat'ed on every use: a test that changes the file sees the server notice before any watch event.
      users: watchUsers(usersFile, { recheckMs: 0 }),
      sessions,
      limiter: o.limiter,
      secure: false,
      maxAgeSeconds: 3600,
      ...(o.trustedProxies === undefined ? {} : { trustedProxies: o.trustedProxies }),
    },
  });
  servers.push(server);
  await server.listen({ port: 0, host: '127.0.0.1' });
  const addr = server.server.address();
  if (addr === null || typeof addr === 'string') throw new Error('no address');
  return { app: server, base: `127.0.0.1:${addr.port}` };
}

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cb-auth-'));
  usersFile = join(dataDir, 'users.json');
  await addUser(usersFile, 'ana', 'analyst', CANARY);
  await addUser(usersFile, 'olga', 'ops', `${CANARY}-ops`);
  await addUser(usersFile, 'dora', 'ops', `${CANARY}-dora`);
  runtime = await createRuntime({ dataDir, secretBox: noSecretBox('no passwords in tests'), redisUrl: redis().url });
  // The address cap is set high here: tests in this file share 127.0.0.1 (loginLimiter.test.ts covers the cap).
  ({ base } = await serveWith({ limiter: new LoginLimiter({ pair: { free: 6, baseMs: 60_000 }, address: { free: 200 } }) }));
});

afterAll(async () => {
  for (const s of servers) await s.close();
  await runtime.close();
  await closeAdmins();
});

async function login(username: unknown, password: unknown, headers: Record<string, string> = {}, at = base): Promise<Response> {
  return fetch(`http://${at}/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
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
    const upload = await fetch(`http://${base}/api/uploads?name=x.csv`, {
      method: 'POST',
      headers: { 'x-cacheboard-upload': '1', 'content-type': 'application/octet-stream' },
      body: 'a',
    });
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
  it('a socket is refused its next call the moment its user is demoted, and is closed with 4401', async () => {
    const cookie = await cookieFor('dora', `${CANARY}-dora`);
    const ws = new WebSocket(`ws://${base}/api/ws`, { headers: { cookie } });
    const answers: ServerMessage[] = [];
    ws.on('message', (d) => answers.push(JSON.parse(String(d)) as ServerMessage));
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await new Promise<void>((resolve) => ws.once('open', () => resolve()));
    const answer = async (id: string) => {
      ws.send(JSON.stringify({ t: 'call', id, name: 'audit.list', input: {} }));
      while (!answers.some((m) => 'id' in m && m.id === id) && ws.readyState === ws.OPEN) await new Promise((r) => setTimeout(r, 5));
      return answers.find((m) => 'id' in m && m.id === id);
    };
    expect(await answer('before')).toMatchObject({ ok: true });
    await addUser(usersFile, 'dora', 'analyst', `${CANARY}-dora`);
    // Sent at once: whichever comes first, the call is refused or the socket is already closed.
    const after = await answer('after');
    expect(after === undefined || codeOf(after) === 'UNAUTHENTICATED', JSON.stringify(after)).toBe(true);
    expect(await closed).toBe(4401);
    expect(await upgradeStatus(`ws://${base}/api/ws`, { cookie })).toBe(401);
    expect(await (await fetch(`http://${base}/api/session`, { headers: { cookie } })).json()).toEqual({ authRequired: true });
    const upload = await fetch(`http://${base}/api/uploads?name=x.csv`, {
      method: 'POST',
      headers: { cookie, 'x-cacheboard-upload': '1', 'content-type': 'application/octet-stream' },
      body: 'a',
    });
    expect(upload.status).toBe(401);
  });

  it('200 parallel wrong guesses cost a few scrypts, the right password is refused once the limit is reached, and another user at that address still signs in', async () => {
    const burst = await Promise.all(Array.from({ length: 200 }, (_, i) => login('olga', `guess-${i}`)));
    const statuses = burst.map((r) => r.status);
    expect(statuses.every((c) => c === 401 || c === 429)).toBe(true);
    // Each 401 is one scrypt; a 429 is answered without hashing. The pair allows 6, then backs off.
    expect(statuses.filter((c) => c === 401).length).toBeLessThanOrEqual(7);
    let backoff = false;
    for (let i = 0; i < 20 && !backoff; i++) {
      const r = await login('olga', `more-${i}`);
      backoff = r.status === 429 && /Too many failed sign-ins/.test(await r.text());
    }
    expect(backoff).toBe(true);
    const right = await login('olga', `${CANARY}-ops`);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await login('ana', CANARY)).status).toBe(200);
  });

  it('counts sign-ins under the X-Forwarded-For client only when the peer is a trusted proxy', async () => {
    const limiter = () => new LoginLimiter({ pair: { free: 1, baseMs: 60_000 } });
    const trusting = await serveWith({ limiter: limiter(), trustedProxies: ['127.0.0.1'] });
    const untrusting = await serveWith({ limiter: limiter(), trustedProxies: ['10.0.0.0/8'] });
    const from = (client: string) => ({ 'x-forwarded-for': client });
    for (const at of [trusting.base, untrusting.base]) {
      expect((await login('ana', 'wrong-1', from('203.0.113.7'), at)).status).toBe(401);
      expect((await login('ana', 'wrong-2', from('203.0.113.7'), at)).status).toBe(401);
      expect((await login('ana', 'wrong-3', from('203.0.113.7'), at)).status).toBe(429);
    }
    // Behind the trusted proxy, another client is another address; from an untrusted peer the header is ignored.
    expect((await login('ana', CANARY, from('203.0.113.8'), trusting.base)).status).toBe(200);
    expect((await login('ana', CANARY, from('203.0.113.8'), untrusting.base)).status).toBe(429);
  });

  it('a POST that is no sign-in attempt (not JSON, or from another site) is refused and not counted', async () => {
    await addUser(usersFile, 'carol', 'ops', `${CANARY}-carol`);
    const post = (headers: Record<string, string>, body: string) => fetch(`http://${base}/api/session`, { method: 'POST', headers, body });
    const json = JSON.stringify({ username: 'carol', password: `${CANARY}-carol` });
    for (let i = 0; i < 10; i++) {
      const form = await post({ 'content-type': 'text/plain' }, JSON.stringify({ username: 'carol', password: `guess-${i}` }));
      expect(form.status).toBe(415);
      expect((await post({ 'content-type': 'application/json', origin: 'https://evil.example' }, json)).status).toBe(403);
      expect((await post({ 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }, json)).status).toBe(403);
    }
    const same = await post({ 'content-type': 'application/json; charset=utf-8', origin: `http://${base}`, 'sec-fetch-site': 'same-origin' }, json);
    expect(same.status).toBe(200);
  });
});
