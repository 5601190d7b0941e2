import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { ServerMessage } from '../../app/wire';
import { startServe, type ServeProcess } from '../../e2e/serveProcess';
import { runCli } from '../../testing/cli';
import { upgradeStatus } from '../../testing/http';
import { eventually, useRedis } from '../../testing/redis';
import { freePort } from '../core/redisProcess/freePort';
import { addUser } from '../server/auth/users';
import { authModeFor } from './serveAuth';
import { parseServeArgs } from './serveArgs';
import { readServeEnv } from './serveEnv';
import { apiClient, signIn } from './serveApiTestKit';

const dir = mkdtempSync(join(tmpdir(), 'cb-serveauth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('authModeFor', () => {
  it('is local on loopback with no users', () => {
    expect(authModeFor(readServeEnv({ CACHEBOARD_DATA_DIR: dir })).kind).toBe('local');
  });

  it.each([
    [{ HOST: '0.0.0.0' }, [], /HOST=0\.0\.0\.0 is not loopback/],
    [{ CACHEBOARD_AUTH: 'required' }, [], /CACHEBOARD_AUTH=required/],
    [{ CACHEBOARD_AUTH: 'auto' }, ['--auth', 'required'], /\(--auth required\)/],
  ])('refuses to start with %j %j and no users, saying how to add one', (env, argv, why) => {
    const cfg = () => readServeEnv({ CACHEBOARD_DATA_DIR: dir, ...env }, parseServeArgs(argv));
    expect(() => authModeFor(cfg())).toThrow(why);
    expect(() => authModeFor(cfg())).toThrow(/cacheboard user add NAME --role ops/);
  });

  it('--auth auto keeps local mode on loopback even when CACHEBOARD_AUTH says required', () => {
    expect(authModeFor(readServeEnv({ CACHEBOARD_DATA_DIR: dir, CACHEBOARD_AUTH: 'required' }, parseServeArgs(['--auth', 'auto']))).kind).toBe('local');
  });

  it('cacheboard serve --auth required refuses to start without users, whatever CACHEBOARD_AUTH says', async () => {
    // A free port: were the flag ignored, the server would start in local mode instead (and the test time out).
    const port = String(await freePort());
    const r = spawnSync(process.execPath, ['bin/cacheboard.js', 'serve', '--auth', 'required'], {
      env: {
        ...process.env,
        CACHEBOARD_DATA_DIR: mkdtempSync(join(dir, 'flag-')),
        CACHEBOARD_AUTH: 'auto',
        CACHEBOARD_USERS: '',
        REDIS_URL: '',
        CACHEBOARD_CONFIG: '',
        PORT: port,
      },
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Sign-in is required (--auth required)');
  });

  it('is on as soon as a user exists, even on loopback; Secure cookies behind an https public URL; the trusted proxies passed on', async () => {
    const usersFile = join(dir, 'u.json');
    await addUser(usersFile, 'ana', 'analyst', 'pw');
    const mode = authModeFor(
      readServeEnv({
        CACHEBOARD_DATA_DIR: dir,
        CACHEBOARD_USERS: usersFile,
        CACHEBOARD_PUBLIC_URL: 'https://cb.example',
        CACHEBOARD_TRUSTED_PROXIES: '10.0.0.0/8',
      }),
    );
    expect(mode.kind).toBe('users');
    if (mode.kind === 'users') {
      expect(mode.secure).toBe(true);
      expect(mode.trustedProxies).toEqual(['10.0.0.0/8']);
      expect(mode.users.find('ana')?.role).toBe('analyst');
      mode.users.close();
    }
  });
});

describe('a running cacheboard serve follows `cacheboard user` run in another process', () => {
  const redis = useRedis();
  let serve: ServeProcess;
  const NAMES = ['keeper', 'leaver', 'demoted', 'repassworded'];

  beforeAll(async () => {
    serve = await startServe({ REDIS_URL: redis().url }, async (d) => {
      for (const name of NAMES) await addUser(join(d, 'users.json'), name, 'ops', `pw-${name}`);
    });
  }, 60_000);
  afterAll(async () => serve?.stop());

  const signIn = async (username: string, password: string) => {
    const res = await fetch(`${serve.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    return { status: res.status, body: (await res.json()) as unknown, cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '' };
  };

  /** A signed-in page's WebSocket: one call at a time, and how it was closed. */
  const openSocket = async (cookie: string) => {
    const ws = new WebSocket(`${serve.url.replace('http', 'ws')}/api/ws`, { headers: { cookie } });
    const answers = new Map<string, ServerMessage>();
    ws.on('message', (d) => {
      const m = JSON.parse(String(d)) as ServerMessage;
      if ('id' in m && typeof m.id === 'string') answers.set(m.id, m);
    });
    const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on('close', (code, reason) => resolve({ code, reason: String(reason) })));
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    let n = 0;
    const call = async (name: string) => {
      const id = `c${n++}`;
      ws.send(JSON.stringify({ t: 'call', id, name, input: {} }));
      const deadline = Date.now() + 5000;
      while (!answers.has(id) && ws.readyState === ws.OPEN && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      return answers.get(id);
    };
    return { call, closed };
  };

  const within = <T>(p: Promise<T>, ms: number) => Promise.race([p, new Promise<'timed out'>((r) => setTimeout(() => r('timed out'), ms))]);

  it.each([
    ['removed', ['remove', 'leaver']],
    ['demoted to analyst', ['add', 'demoted', '--role', 'analyst', '--password-stdin']],
    ['given a new password', ['add', 'repassworded', '--role', 'ops', '--password-stdin']],
  ])('a user %s is signed out at once: the open socket closes, a new one is refused, ops calls fail', async (_what, args) => {
    const name = args[1] ?? '';
    const mine = await signIn(name, `pw-${name}`);
    const other = await signIn('keeper', 'pw-keeper');
    expect([mine.status, other.status]).toEqual([200, 200]);
    const socket = await openSocket(mine.cookie);
    const keeperSocket = await openSocket(other.cookie);
    expect(await socket.call('audit.list')).toMatchObject({ ok: true });

    const cli = await runCli(['user', ...args], (child) => child.stdin.end('a-new-pw-9\n'), { CACHEBOARD_DATA_DIR: serve.dataDir, CACHEBOARD_USERS: '' });
    expect(cli.code, cli.err).toBe(0);

    expect(await within(socket.closed, 2000)).toEqual({ code: 4401, reason: 'session revoked' });
    expect(await upgradeStatus(`${serve.url.replace('http', 'ws')}/api/ws`, { cookie: mine.cookie })).toBe(401);
    const me = await fetch(`${serve.url}/api/session`, { headers: { cookie: mine.cookie } });
    expect(await me.json()).toEqual({ authRequired: true });
    // The other ops path, the upload route, refuses the old cookie too.
    const upload = await fetch(`${serve.url}/api/uploads?name=x.csv`, {
      method: 'POST',
      headers: { cookie: mine.cookie, 'x-cacheboard-upload': '1', 'content-type': 'application/octet-stream' },
      body: 'a',
    });
    expect(upload.status).toBe(401);

    // Signing in again gets what the file now says; nobody else was signed out.
    const again = await signIn(name, 'a-new-pw-9');
    if (args[0] === 'remove') expect(again.status).toBe(401);
    else expect(again.body).toEqual({ user: name, role: args.includes('analyst') ? 'analyst' : 'ops' });
    if (args.includes('analyst')) expect(await (await openSocket(again.cookie)).call('audit.list')).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(await keeperSocket.call('audit.list')).toMatchObject({ ok: true });
  });
});

describe('a local cacheboard serve (no users) turns to sign-in when `cacheboard user add` runs beside it', () => {
  const redis = useRedis();
  let serve: ServeProcess;
  beforeAll(async () => {
    serve = await startServe({ REDIS_URL: redis().url });
  }, 60_000);
  afterAll(async () => serve?.stop());

  it('closes the open pages, refuses sockets, calls and uploads without a session at once, and says so in its log', async () => {
    const port = Number(new URL(serve.url).port);
    const open = await apiClient(port);
    expect(await open.result('audit.list', {})).toMatchObject({ ok: true });
    expect(await (await fetch(`${serve.url}/api/session`)).json()).toEqual({ authRequired: false, user: 'local', role: 'ops' });

    const cli = await runCli(['user', 'add', 'first', '--role', 'ops', '--password-stdin'], (child) => child.stdin.end('first-pw-3381\n'), {
      CACHEBOARD_DATA_DIR: serve.dataDir,
      CACHEBOARD_USERS: '',
    });
    expect(cli.code, cli.err).toBe(0);

    // Bounded: the directory watch, or failing that the stat on use (every 250 ms), sees the file.
    expect(await eventually(() => open.closed() !== undefined, 2_000)).toBe(true);
    expect(open.closed()).toEqual({ code: 4401, reason: 'sign-in required' });
    expect(await upgradeStatus(`${serve.url.replace('http', 'ws')}/api/ws`, {})).toBe(401);
    expect(await (await fetch(`${serve.url}/api/session`)).json()).toEqual({ authRequired: true });
    const upload = await fetch(`${serve.url}/api/uploads?name=x.csv`, {
      method: 'POST',
      headers: { 'x-cacheboard-upload': '1', 'content-type': 'application/octet-stream' },
      body: 'a',
    });
    expect(upload.status).toBe(401);
    expect(await eventually(() => serve.output().includes('sign-in is now required'), 2_000)).toBe(true);

    // The new user signs in and works; the server stays locked.
    const cookie = await signIn(port, 'first', 'first-pw-3381');
    const signed = await apiClient(port, cookie);
    expect(await signed.result('audit.list', {})).toMatchObject({ ok: true });
    signed.close();
  });
});
