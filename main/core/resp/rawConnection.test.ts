import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { specFor } from '../../../testing/profiles';
import { adminClient, clientsNamed, closeAdmins, eventually, startRedis, stopAllRedis, useRedis } from '../../../testing/redis';
import { silentServer } from '../../../testing/silentServer';
import { makeTlsFiles, type TlsFiles } from '../../../testing/tls';
import { AppError } from '../../../app/errors';
import { freePort } from '../redisProcess/freePort';
import { openRawConnection, type RawConnection } from './rawConnection';

afterAll(async () => {
  await closeAdmins();
  await stopAllRedis();
});

const conns: RawConnection[] = [];
afterEach(() => {
  for (const c of conns.splice(0)) c.destroy();
});

async function failure(p: Promise<RawConnection>): Promise<AppError> {
  const err = await p.then(
    (c) => {
      conns.push(c);
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

/** One SET over the raw socket, answered; enough to see which DB a connection is on. */
function setOver(conn: RawConnection, key: string, value: string): Promise<string> {
  return new Promise((resolve) => {
    conn.socket.once('data', (d: Buffer) => resolve(d.toString()));
    conn.socket.write(`*3\r\n$3\r\nSET\r\n$${key.length}\r\n${key}\r\n$${value.length}\r\n${value}\r\n`);
  });
}

describe('openRawConnection', () => {
  const redis = useRedis({ password: 'secret-pw' });
  const spec = (over = {}) => specFor(redis(), { password: 'secret-pw', ...over });

  it('authenticates, names itself and selects the DB', async () => {
    const admin = await adminClient(redis(), { password: 'secret-pw', db: 5 });
    const conn = await openRawConnection(spec(), 5, { name: 'cacheboard-bulk:job1' });
    conns.push(conn);
    expect(conn.address).toBe(`127.0.0.1:${redis().port}`);
    const [entry] = await clientsNamed(admin, 'cacheboard-bulk:job1');
    expect(entry).toMatch(/ db=5 /);
    expect(entry).toContain(`id=${conn.clientId} `);
    expect(await setOver(conn, 'where', 'db5')).toBe('+OK\r\n');
    expect(await admin.get('where')).toBe('db5');
  });

  it('authenticates an ACL user with username and password', async () => {
    const admin = await adminClient(redis(), { password: 'secret-pw' });
    await admin.call('ACL', 'SETUSER', 'loader', 'on', '>loader-pw', '~*', '+@all');
    const conn = await openRawConnection(spec({ username: 'loader', password: 'loader-pw' }), 0);
    conns.push(conn);
    expect(await admin.call('ACL', 'WHOAMI')).toBe('default');
    expect((await clientsNamed(admin, 'cacheboard-bulk'))[0]).toContain(' user=loader ');
  });

  it('signs in as a named user that has no password (nopass), never as default', async () => {
    const admin = await adminClient(redis(), { password: 'secret-pw' });
    await admin.call('ACL', 'SETUSER', 'reader', 'on', 'nopass', '~*', '+@all');
    const conn = await openRawConnection({ ...spec(), username: 'reader', password: undefined }, 0, { name: 'cacheboard-bulk:nopass' });
    conns.push(conn);
    expect((await clientsNamed(admin, 'cacheboard-bulk:nopass'))[0]).toContain(' user=reader ');
  });

  it('fails with AUTH_FAILED for a wrong password, without echoing it, and leaves no connection', async () => {
    const admin = await adminClient(redis(), { password: 'secret-pw' });
    const err = await failure(openRawConnection(spec({ password: 'wrong-pw' }), 0, { name: 'bad-login' }));
    expect(err.code).toBe('AUTH_FAILED');
    expect(err.message).toContain(`127.0.0.1:${redis().port}`);
    expect(err.message).not.toContain('wrong-pw');
    const others = async (): Promise<number> =>
      String(await admin.client('LIST'))
        .trim()
        .split('\n')
        .filter((l) => !l.includes(' name=test-admin ')).length;
    expect(await eventually(async () => (await others()) === 0, 1_000)).toBe(true);
  });

  it('fails with AUTH_FAILED when the server wants a password and none is set', async () => {
    const err = await failure(openRawConnection(specFor(redis()), 0));
    expect(err.code).toBe('AUTH_FAILED');
  });

  it('fails with NOPERM when the ACL user may not SELECT', async () => {
    const admin = await adminClient(redis(), { password: 'secret-pw' });
    await admin.call('ACL', 'SETUSER', 'noselect', 'on', '>ns-pw', '~*', '+@all', '-select');
    const err = await failure(openRawConnection(spec({ username: 'noselect', password: 'ns-pw' }), 1));
    expect(err.code).toBe('NOPERM');
    expect(err.message).toContain('select');
  });

  it('fails with REDIS for a DB the server does not have', async () => {
    const err = await failure(openRawConnection(spec(), 99));
    expect(err.code).toBe('REDIS');
    expect(err.message).toContain('DB index is out of range');
  });

  it('refuses a connection name Redis would refuse', async () => {
    const err = await failure(openRawConnection(spec(), 0, { name: 'has space' }));
    expect(err.code).toBe('VALIDATION');
  });
});

describe('openRawConnection to nothing useful', () => {
  it('fails with UNREACHABLE naming host:port when nothing listens', async () => {
    const port = await freePort();
    const err = await failure(openRawConnection(specFor({ port }), 0));
    expect(err.code).toBe('UNREACHABLE');
    expect(err.message).toContain(`127.0.0.1:${port}`);
  });

  it('fails with TIMEOUT when the server accepts but never answers', async () => {
    const silent = await silentServer();
    try {
      const started = Date.now();
      const err = await failure(openRawConnection(specFor({ port: silent.port }), 0, { connectTimeoutMs: 300 }));
      expect(err.code).toBe('TIMEOUT');
      expect(err.message).toContain(`127.0.0.1:${silent.port}`);
      expect(Date.now() - started).toBeLessThan(1_500);
    } finally {
      await silent.close();
    }
  });
});

describe('openRawConnection over TLS', () => {
  let files: TlsFiles;
  let port = 0;
  beforeAll(async () => {
    files = makeTlsFiles();
    port = (await startRedis({ tls: files })).port;
  });
  afterAll(() => files.remove());

  it('connects when the CA signed the server certificate', async () => {
    const conn = await openRawConnection(specFor({ port }, { tls: { enabled: true, caFile: files.caFile, rejectUnauthorized: true } }), 0);
    conns.push(conn);
    expect(await setOver(conn, 'tls', 'yes')).toBe('+OK\r\n');
  });

  it('fails with TLS when the certificate is signed by another CA', async () => {
    const spec = specFor({ port }, { tls: { enabled: true, caFile: files.otherCaFile, rejectUnauthorized: true } });
    const err = await failure(openRawConnection(spec, 0));
    expect(err.code).toBe('TLS');
  });
});
