import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { backoffMs, toRedisOptions, validateSpecFiles } from './connectionOptions';

const dir = mkdtempSync(join(tmpdir(), 'cacheboard-opts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('toRedisOptions', () => {
  const spec = specFor({ host: 'cache', port: 6380 }, { db: 3, username: 'u', password: 'p' });

  it('carries address, db and credentials, and always connects lazily', () => {
    for (const kind of ['shared', 'monitoring', 'dedicated', 'test'] as const) {
      expect(toRedisOptions(spec, kind)).toMatchObject({ host: 'cache', port: 6380, db: 3, username: 'u', password: 'p', lazyConnect: true });
    }
    expect(toRedisOptions(spec, 'shared', { db: 5 }).db).toBe(5);
  });

  it('bounds the offline queue of shared connections and disables it for monitoring', () => {
    const shared = toRedisOptions(spec, 'shared');
    expect(shared).toMatchObject({ enableOfflineQueue: true, maxRetriesPerRequest: 2, commandTimeout: 5_000 });
    const mon = toRedisOptions(spec, 'monitoring');
    expect(mon).toMatchObject({ enableOfflineQueue: false, commandTimeout: 2_000 });
    expect(typeof shared.retryStrategy).toBe('function');
  });

  it('never reconnects a dedicated connection and sets no command timeout on it', () => {
    const o = toRedisOptions(spec, 'dedicated');
    expect(o.retryStrategy?.(1)).toBeNull();
    expect(o.commandTimeout).toBeUndefined();
  });

  it('builds TLS options with the CA file content only when TLS is on', () => {
    const ca = join(dir, 'ca.pem');
    writeFileSync(ca, 'PEM-BYTES');
    expect(toRedisOptions(specFor({ port: 1 }), 'shared').tls).toBeUndefined();
    const o = toRedisOptions(specFor({ port: 1 }, { tls: { enabled: true, caFile: ca, servername: 'sni', rejectUnauthorized: false } }), 'shared');
    expect(o.tls).toEqual({ ca: Buffer.from('PEM-BYTES'), servername: 'sni', rejectUnauthorized: false });
  });
});

describe('backoffMs', () => {
  it('doubles from 100 ms and stops at 5 s', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 50].map(backoffMs)).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000]);
  });
});

describe('validateSpecFiles', () => {
  it('accepts an existing CA file, ignores it with TLS off, and names tls.caFile when missing', () => {
    const ca = join(dir, 'ok.pem');
    writeFileSync(ca, 'x');
    expect(() => validateSpecFiles(specFor({ port: 1 }, { tls: { enabled: true, caFile: ca, rejectUnauthorized: true } }))).not.toThrow();
    expect(() => validateSpecFiles(specFor({ port: 1 }, { tls: { enabled: false, caFile: '/nope', rejectUnauthorized: true } }))).not.toThrow();
    expect(() => validateSpecFiles(specFor({ port: 1 }, { tls: { enabled: true, caFile: dir, rejectUnauthorized: true } }))).toThrow(
      `tls.caFile: file not found: ${dir}`,
    );
  });
});
