import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { AppError } from '../../../app/errors';
import { freePort } from '../redisProcess/freePort';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { adminClient, clientsNamed, closeAdmins, startRedis, stopAllRedis, useRedis } from '../../../testing/redis';
import { silentServer } from '../../../testing/silentServer';
import { Pool, type PoolOptions } from './pool';
import type { ProfileSpec } from './types';
import { toAppErrorFor } from './redisErrors';

const pools: Pool[] = [];
function poolFor(spec: ProfileSpec, opts: Partial<PoolOptions> = {}): Pool {
  const pool = new Pool({ ...profileRegistry({ p: spec }), ...opts });
  pools.push(pool);
  return pool;
}
async function failure(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (err === undefined) throw new Error('expected a rejection');
  return err as AppError;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.shutdown()));
});
afterAll(async () => {
  await closeAdmins();
  await stopAllRedis();
});

describe('Pool connect failures', () => {
  it('reports UNREACHABLE naming host:port at once when nothing listens, and leaves no reconnecting client', async () => {
    const port = await freePort();
    const pool = poolFor(specFor({ port }), { connectTimeoutMs: 2_000 });
    const t0 = Date.now();
    const err = await failure(pool.shared('p'));
    expect(Date.now() - t0).toBeLessThan(2_000);
    expect(err.code).toBe('UNREACHABLE');
    expect(err.message).toBe(`Cannot reach Redis at 127.0.0.1:${port}: connection refused. Is the server running and the port right?`);
    expect(pool.states()).toEqual([expect.objectContaining({ state: 'error', detail: `connection refused at 127.0.0.1:${port}` })]);
    // A zombie with a retry strategy would connect to a server that appears later on that port.
    const late = await startRedis({ port });
    const admin = await adminClient(late);
    await new Promise((r) => setTimeout(r, 400));
    expect(await clientsNamed(admin, 'cacheboard:')).toHaveLength(0);
    await late.stop();
  });

  it('reports TIMEOUT within the connect timeout when the peer accepts but never answers', async () => {
    const silent = await silentServer();
    try {
      const pool = poolFor(specFor({ port: silent.port }), { connectTimeoutMs: 300 });
      const t0 = Date.now();
      const err = await failure(pool.shared('p'));
      const elapsed = Date.now() - t0;
      expect(elapsed).toBeGreaterThanOrEqual(290);
      expect(elapsed).toBeLessThan(1_000);
      expect(err.code).toBe('TIMEOUT');
      expect(err.message).toContain(`127.0.0.1:${silent.port}`);
      expect(err.message).toContain('300 ms');
    } finally {
      await silent.close();
    }
  });
});

describe('Pool authentication', () => {
  const redis = useRedis({ password: 'right-pass' });

  it('maps a wrong password to AUTH_FAILED without echoing the password', async () => {
    const pool = poolFor(specFor(redis(), { password: 'wrong-pass-xyz' }));
    const err = await failure(pool.shared('p'));
    expect(err.code).toBe('AUTH_FAILED');
    expect(err.message).toMatch(/wrong username or password/);
    expect(err.message).not.toContain('wrong-pass-xyz');
    expect(pool.states()[0]?.state).toBe('error');
  });

  it('maps a missing password (NOAUTH) to AUTH_FAILED', async () => {
    const pool = poolFor(specFor(redis()));
    const err = await failure(pool.shared('p'));
    expect(err.code).toBe('AUTH_FAILED');
  });

  it('connects with the right password', async () => {
    const pool = poolFor(specFor(redis(), { password: 'right-pass' }));
    expect(await (await pool.shared('p')).ping()).toBe('PONG');
  });
});

describe('Pool ACL users', () => {
  const redis = useRedis();

  it('maps a command the ACL denies to NOPERM, naming the command', async () => {
    const admin = await adminClient(redis());
    await admin.call('ACL', 'SETUSER', 'limited', 'on', '>pw', '~*', '+ping', '-info');
    // ioredis' ready check runs INFO, gets NOPERM, warns and carries on; keep the test output clean.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const pool = poolFor(specFor(redis(), { username: 'limited', password: 'pw' }));
      const conn = await pool.shared('p');
      expect(await conn.ping()).toBe('PONG');
      const err = await failure(conn.info().catch((e: unknown) => Promise.reject(toAppErrorFor(conn, e))));
      expect(err.code).toBe('NOPERM');
      expect(err.message).toContain("'info'");
      expect(err.message).toContain(`127.0.0.1:${redis().port}`);
      expect(err.message).not.toContain('pw');
    } finally {
      warn.mockRestore();
    }
  });

  it('maps a wrong ACL user password to AUTH_FAILED', async () => {
    const pool = poolFor(specFor(redis(), { username: 'limited', password: 'nope' }));
    expect((await failure(pool.shared('p'))).code).toBe('AUTH_FAILED');
  });
});

describe('Pool command timeouts', () => {
  it('fails a command on a paused server with TIMEOUT naming the timeout', async () => {
    const proc = await startRedis();
    const pool = poolFor(specFor(proc), { commandTimeoutMs: 200 });
    const conn = await pool.shared('p');
    proc.kill('SIGSTOP');
    try {
      const t0 = Date.now();
      const err = await failure(conn.get('k').catch((e: unknown) => Promise.reject(toAppErrorFor(conn, e))));
      expect(Date.now() - t0).toBeLessThan(1_000);
      expect(err.code).toBe('TIMEOUT');
      expect(err.message).toContain('200 ms');
      expect(err.message).toContain(`127.0.0.1:${proc.port}`);
    } finally {
      proc.kill('SIGCONT');
      await proc.stop();
    }
  });
});
