import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { adminClient, clientsNamed, closeAdmins, eventually, startRedis, stopAllRedis, useRedis, type RedisProcess } from '../../../testing/redis';
import { silentServer } from '../../../testing/silentServer';
import { makeTlsFiles, type TlsFiles } from '../../../testing/tls';
import { freePort } from '../redisProcess/freePort';
import { Pool } from './pool';
import type { ProfileSpec } from './types';

const pool = new Pool({ ...profileRegistry({}), testConnectTimeoutMs: 500 });
afterAll(async () => {
  await pool.shutdown();
  await closeAdmins();
  await stopAllRedis();
});

const serverVersion = /v=(\S+)/.exec(execFileSync('redis-server', ['--version'], { encoding: 'utf8' }))?.[1];

describe('Pool.test against a reachable server', () => {
  const redis = useRedis({ password: 'pw-for-test' });

  it('answers ok with latency, version, role and mode, and closes its connection', async () => {
    const result = await pool.test(specFor(redis(), { password: 'pw-for-test' }));
    expect(result).toEqual({
      ok: true,
      latencyMs: expect.any(Number),
      serverVersion,
      serverName: 'redis',
      role: 'master',
      mode: 'standalone',
    });
    expect(result.latencyMs).toBeGreaterThan(0);
    expect(result.latencyMs).toBeLessThan(1_000);
    const admin = await adminClient(redis(), { password: 'pw-for-test' });
    expect(await clientsNamed(admin, 'cacheboard:test')).toHaveLength(0);
  });

  it('answers AUTH_FAILED for a wrong password, without throwing and without leaving a connection', async () => {
    const result = await pool.test(specFor(redis(), { password: 'not-it' }));
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('AUTH_FAILED');
    expect(result.error?.message).not.toContain('not-it');
    // The failed login could not even name its connection, so count every client but ours.
    const admin = await adminClient(redis(), { password: 'pw-for-test' });
    const others = async (): Promise<number> =>
      String(await admin.client('LIST'))
        .trim()
        .split('\n')
        .filter((l) => !l.includes(' name=test-admin ')).length;
    expect(await eventually(async () => (await others()) === 0, 1_000)).toBe(true);
  });

  it('passes a user whose ACL forbids INFO, reporting what it could', async () => {
    // ioredis' ready check runs INFO, gets NOPERM, warns and carries on; keep the output clean.
    vi.spyOn(console, 'warn').mockImplementationOnce(() => undefined);
    const admin = await adminClient(redis(), { password: 'pw-for-test' });
    await admin.call('ACL', 'SETUSER', 'pinger', 'on', '>pinger-pw', '+ping', '+auth');
    const result = await pool.test(specFor(redis(), { username: 'pinger', password: 'pinger-pw' }));
    expect(result).toEqual({ ok: true, latencyMs: expect.any(Number) });
  });
});

describe('Pool.test failures', () => {
  it('answers UNREACHABLE when nothing listens', async () => {
    const port = await freePort();
    const result = await pool.test(specFor({ port }));
    expect(result).toEqual({ ok: false, error: { code: 'UNREACHABLE', message: expect.stringContaining(`127.0.0.1:${port}`) } });
  });

  it('answers TIMEOUT within its short connect timeout when the peer never answers', async () => {
    const silent = await silentServer();
    try {
      const t0 = Date.now();
      const result = await pool.test(specFor({ port: silent.port }));
      expect(Date.now() - t0).toBeLessThan(1_500);
      expect(result.error?.code).toBe('TIMEOUT');
    } finally {
      await silent.close();
    }
  });

  it('answers VALIDATION on tls.caFile when the CA file is missing', async () => {
    const result = await pool.test(specFor({ port: 1 }, { tls: { enabled: true, caFile: '/nonexistent/ca.pem', rejectUnauthorized: true } }));
    expect(result).toEqual({
      ok: false,
      error: { code: 'VALIDATION', message: 'tls.caFile: file not found: /nonexistent/ca.pem', field: 'tls.caFile' },
    });
  });
});

describe('Pool.test over TLS', () => {
  let files: TlsFiles;
  let tlsRedis: RedisProcess;
  let plainRedis: RedisProcess;
  beforeAll(async () => {
    files = makeTlsFiles();
    tlsRedis = await startRedis({ tls: files });
    plainRedis = await startRedis();
  });
  afterAll(() => files.remove());
  const tlsSpec = (tls: Partial<ProfileSpec['tls']>, port = tlsRedis.port): ProfileSpec =>
    specFor({ port }, { tls: { enabled: true, rejectUnauthorized: true, ...tls } });

  it('connects when the CA file is the one that signed the server certificate', async () => {
    expect(await pool.test(tlsSpec({ caFile: files.caFile }))).toMatchObject({ ok: true, serverVersion });
  });

  it('answers TLS when the certificate is signed by a CA it was not given', async () => {
    const withoutCa = await pool.test(tlsSpec({}));
    expect(withoutCa.error?.code).toBe('TLS');
    expect(withoutCa.error?.message).toContain(`127.0.0.1:${tlsRedis.port}`);
    const otherCa = await pool.test(tlsSpec({ caFile: files.otherCaFile }));
    expect(otherCa.error?.code).toBe('TLS');
    expect(otherCa.error?.message).toMatch(/CA file/);
  });

  it('answers TLS when the server name does not match the certificate', async () => {
    const result = await pool.test(tlsSpec({ caFile: files.caFile, servername: 'elsewhere.example' }));
    expect(result.error?.code).toBe('TLS');
    expect(result.error?.message).toMatch(/server name/);
  });

  it('connects without a CA when verification is turned off explicitly', async () => {
    expect((await pool.test(tlsSpec({ rejectUnauthorized: false }))).ok).toBe(true);
  });

  it('suggests turning TLS off when TLS is on against a plain server, which waits silently', async () => {
    const result = await pool.test(tlsSpec({ rejectUnauthorized: false }, plainRedis.port));
    expect(result.error?.code).toBe('TIMEOUT');
    expect(result.error?.message).toMatch(/turn TLS off/);
  });
});
