import { describe, expect, it } from 'vitest';
import { ReplyError } from 'ioredis';
import { AppError } from '../../../app/errors';
import { mapRedisError, toAppError } from './redisErrors';

const ctx = { host: '10.0.0.5', port: 6390, connectTimeoutMs: 1500, commandTimeoutMs: 2000, password: 'hunter2' };

function sysError(code: string, message = `${code} something`): Error {
  return Object.assign(new Error(message), { code });
}
function reply(text: string): Error {
  return new (ReplyError as new (m: string) => Error)(text);
}

describe('mapRedisError', () => {
  it('maps socket failures to UNREACHABLE naming host:port', () => {
    for (const code of ['ECONNREFUSED', 'EHOSTUNREACH', 'ENOTFOUND', 'ECONNRESET']) {
      const m = mapRedisError(sysError(code), ctx);
      expect(m.code).toBe('UNREACHABLE');
      expect(m.message).toContain('10.0.0.5:6390');
    }
    expect(mapRedisError(sysError('ECONNREFUSED'), ctx)).toEqual({
      code: 'UNREACHABLE',
      message: 'Cannot reach Redis at 10.0.0.5:6390: connection refused. Is the server running and the port right?',
      detail: 'connection refused at 10.0.0.5:6390',
    });
  });

  it('maps connect and command timeouts to TIMEOUT with the timeout', () => {
    const connect = mapRedisError(sysError('ETIMEDOUT', 'connect ETIMEDOUT'), ctx);
    expect(connect.code).toBe('TIMEOUT');
    expect(connect.message).toContain('1500 ms');
    const command = mapRedisError(new Error('Command timed out'), ctx);
    expect(command.code).toBe('TIMEOUT');
    expect(command.message).toContain('2000 ms');
    expect(command.message).toContain('10.0.0.5:6390');
  });

  it('maps WRONGPASS, NOAUTH and the pre-ACL wording to AUTH_FAILED', () => {
    expect(mapRedisError(reply('WRONGPASS invalid username-password pair or user is disabled.'), ctx).code).toBe('AUTH_FAILED');
    expect(mapRedisError(reply('NOAUTH Authentication required.'), ctx).code).toBe('AUTH_FAILED');
    expect(mapRedisError(reply('ERR invalid password'), ctx).code).toBe('AUTH_FAILED');
    expect(mapRedisError(new Error('Ready check failed: NOAUTH Authentication required.'), ctx).code).toBe('AUTH_FAILED');
  });

  it("maps NOPERM to NOPERM keeping Redis' words about the command or key", () => {
    const m = mapRedisError(reply('NOPERM No permissions to access a key'), ctx);
    expect(m.code).toBe('NOPERM');
    expect(m.message).toContain('No permissions to access a key');
  });

  it('maps certificate and handshake failures to TLS with a hint', () => {
    const cases: Array<[Error, RegExp]> = [
      [sysError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'), /CA file/],
      [sysError('UNABLE_TO_VERIFY_LEAF_SIGNATURE'), /CA file/],
      [sysError('CERT_HAS_EXPIRED'), /expired/],
      [sysError('ERR_TLS_CERT_ALTNAME_INVALID'), /server name/],
      [sysError('ERR_SSL_WRONG_VERSION_NUMBER', 'ssl3_get_record:wrong version number'), /does not speak TLS/],
    ];
    for (const [err, hint] of cases) {
      const m = mapRedisError(err, ctx);
      expect(m.code).toBe('TLS');
      expect(m.message).toMatch(hint);
    }
  });

  it('maps other error replies to REDIS with the reply text', () => {
    const m = mapRedisError(reply("ERR unknown command 'FOO'"), ctx);
    expect(m).toMatchObject({ code: 'REDIS', message: `Redis at 10.0.0.5:6390 replied: ERR unknown command 'FOO'` });
    expect(mapRedisError(reply('LOADING Redis is loading the dataset in memory'), ctx).code).toBe('REDIS');
  });

  it('never lets the password through, even if a server echoed it', () => {
    const m = mapRedisError(reply('ERR weird hunter2 echoed'), ctx);
    expect(m.message).not.toContain('hunter2');
    expect(m.detail).not.toContain('hunter2');
  });

  it('works without context, taking the address from the socket error when it has one', () => {
    const err = Object.assign(sysError('ECONNREFUSED'), { address: '127.0.0.1', port: 7 });
    expect(toAppError(err).message).toContain('127.0.0.1:7');
    expect(toAppError(new TypeError('x is not a function'))).toMatchObject({ code: 'INTERNAL' });
    const app = new AppError('NOT_FOUND', 'gone');
    expect(toAppError(app)).toBe(app);
  });

  it('names a cluster by its seeds and a sentinel master by name, with the cause ioredis carried', () => {
    const seeds = { label: 'cluster seeds 10.0.0.1:7000, 10.0.0.2:7000' };
    // ioredis' Cluster gives up with one error holding the last node's cause.
    const allFailed = Object.assign(new Error('Failed to refresh slots cache.'), { lastNodeError: sysError('ECONNREFUSED') });
    expect(mapRedisError(allFailed, seeds)).toMatchObject({
      code: 'UNREACHABLE',
      message: expect.stringContaining('Redis at cluster seeds 10.0.0.1:7000, 10.0.0.2:7000: connection refused'),
    });
    expect(mapRedisError(new Error('None of startup nodes is available'), seeds)).toMatchObject({ code: 'UNREACHABLE' });
    expect(mapRedisError(reply('ERR This instance has cluster support disabled'), seeds).message).toContain('not a cluster node');
    const sentinels = mapRedisError(
      new Error('All sentinels are unreachable. Retrying from scratch after 100ms. Last error: connect ECONNREFUSED 10.0.0.8:26379'),
      { label: 'master "cache" via sentinels 10.0.0.8:26379' },
    );
    expect(sentinels).toMatchObject({ code: 'UNREACHABLE', message: expect.stringContaining('connect ECONNREFUSED 10.0.0.8:26379') });
  });
});
