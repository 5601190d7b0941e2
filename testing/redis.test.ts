import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { AppError } from '../app/errors';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { adminClient, closeAdmins, startRedis, stopAllRedis } from './redis';
import { existsSync } from 'node:fs';

afterAll(async () => {
  await closeAdmins();
  await stopAllRedis();
});

describe('spawnRedisServer', () => {
  it('starts a private server on a free port that answers PING, and stop() removes its temp dir', async () => {
    const proc = await startRedis();
    expect(proc.port).not.toBe(6379);
    expect(existsSync(proc.dir)).toBe(true);
    const admin = await adminClient(proc);
    expect(await admin.ping()).toBe('PONG');
    // Our flags reached the server: no snapshots, no AOF.
    expect(await admin.config('GET', 'save')).toEqual(['save', '']);
    expect(await admin.config('GET', 'appendonly')).toEqual(['appendonly', 'no']);
    await proc.stop();
    expect(proc.exited()).toBe(true);
    expect(existsSync(proc.dir)).toBe(false);
    await proc.stop(); // idempotent
  });

  it('passes extra args and requires the password when one is given', async () => {
    const proc = await startRedis({ password: 's3cret', args: ['--maxmemory', '10mb'] });
    expect(proc.url).toBe(`redis://:s3cret@127.0.0.1:${proc.port}`);
    const admin = await adminClient(proc, { password: 's3cret' });
    expect(await admin.config('GET', 'maxmemory')).toEqual(['maxmemory', String(10 * 1024 * 1024)]);
    // No ready check: it would run INFO, fail with NOAUTH and close before our GET.
    const anon = new Redis({ port: proc.port, lazyConnect: true, retryStrategy: () => null, enableReadyCheck: false });
    await anon.connect();
    await expect(anon.get('x')).rejects.toThrow(/NOAUTH/);
    anon.disconnect();
  });

  it('kill() ends the process at once, as a crash would', async () => {
    const proc = await startRedis();
    proc.kill('SIGKILL');
    await proc.stop();
    expect(proc.exited()).toBe(true);
  });

  it('refuses to pass off another server on a taken fixed port as its own, naming the port', async () => {
    const first = await startRedis();
    // A fixed port that is already taken fails (no silent retry), naming the port.
    await expect(spawnRedisServer({ port: first.port, readyTimeoutMs: 3_000 })).rejects.toThrow(new RegExp(`127\\.0\\.0\\.1:${first.port}`));
  });

  it('says which Debian package to install when redis-server is not on PATH', async () => {
    const saved = process.env['PATH'];
    process.env['PATH'] = '/nonexistent';
    try {
      const err = await spawnRedisServer().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe('INTERNAL');
      expect((err as AppError).message).toContain('apt-get install redis-server');
    } finally {
      process.env['PATH'] = saved;
    }
  });
});
