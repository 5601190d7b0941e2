import { describe, expect, it } from 'vitest';
import { parseServeArgs } from './serveArgs';
import { isLoopback, readServeEnv } from './serveEnv';

describe('cacheboard serve environment', () => {
  it('defaults to 127.0.0.1:7379', () => {
    const env = readServeEnv({ HOME: '/home/x' });
    expect(env).toMatchObject({ port: 7379, host: '127.0.0.1', auth: 'auto' });
    expect(env.usersFile.endsWith('users.json')).toBe(true);
    expect(env.redisUrl).toBeUndefined();
  });

  it.each(['0', '70000', 'abc', '12.5', ''])('names PORT when it is %j', (PORT) => {
    expect(() => readServeEnv({ PORT })).toThrow(/PORT/);
  });

  it('passes REDIS_URL, CACHEBOARD_CONFIG and the data dir through', () => {
    const env = readServeEnv({ REDIS_URL: 'redis://h:1/2', CACHEBOARD_CONFIG: '/c.json', CACHEBOARD_DATA_DIR: '/d' });
    expect(env).toMatchObject({ redisUrl: 'redis://h:1/2', configFile: '/c.json', dataDir: '/d' });
  });

  it('reads the auth settings and names the variable that is wrong', () => {
    const env = readServeEnv({ CACHEBOARD_AUTH: 'required', CACHEBOARD_PUBLIC_URL: 'https://cb.example/app', CACHEBOARD_USERS: '/u.json' });
    expect(env).toMatchObject({ auth: 'required', publicUrl: 'https://cb.example', usersFile: '/u.json' });
    expect(() => readServeEnv({ CACHEBOARD_AUTH: 'off' })).toThrow(/CACHEBOARD_AUTH/);
    expect(() => readServeEnv({ CACHEBOARD_PUBLIC_URL: 'not a url' })).toThrow(/CACHEBOARD_PUBLIC_URL/);
    expect(() => readServeEnv({ CACHEBOARD_TLS_CERT: '/c.pem' })).toThrow(/CACHEBOARD_TLS_KEY/);
  });

  it('records history of every profile by default; --history-idle-minutes wins over its variable and is checked', () => {
    expect(readServeEnv({}).historyIdle).toBe('never');
    expect(readServeEnv({ CACHEBOARD_HISTORY_IDLE_MINUTES: '30' }).historyIdle).toBe(30);
    expect(readServeEnv({ CACHEBOARD_HISTORY_IDLE_MINUTES: '30' }, parseServeArgs(['--history-idle-minutes', '0'])).historyIdle).toBe(0);
    expect(readServeEnv({}, parseServeArgs(['--history-idle-minutes', 'never'])).historyIdle).toBe('never');
    expect(() => readServeEnv({ CACHEBOARD_HISTORY_IDLE_MINUTES: '1.5' })).toThrow(
      /CACHEBOARD_HISTORY_IDLE_MINUTES must be a whole number of minutes or "never"/,
    );
    expect(() => parseServeArgs(['--history-idle-minutes', 'soon'])).toThrow(/--history-idle-minutes/);
  });

  it('takes --auth over CACHEBOARD_AUTH, remembers which one decided, and names the flag when it is wrong', () => {
    expect(readServeEnv({ CACHEBOARD_AUTH: 'auto' }, parseServeArgs(['--auth', 'required']))).toMatchObject({ auth: 'required', authSetBy: '--auth required' });
    expect(readServeEnv({ CACHEBOARD_AUTH: 'required' }, parseServeArgs(['--auth=auto']))).toMatchObject({ auth: 'auto', authSetBy: '--auth auto' });
    expect(readServeEnv({ CACHEBOARD_AUTH: 'required' }, parseServeArgs([]))).toMatchObject({ auth: 'required', authSetBy: 'CACHEBOARD_AUTH=required' });
    expect(() => parseServeArgs(['--auth', 'off'])).toThrow('--auth must be one of auto, required, not "off"');
    expect(() => parseServeArgs(['--port', '1'])).toThrow(/'--port'.*cacheboard serve --help/);
  });

  it('reads CACHEBOARD_TRUSTED_PROXIES as IPs and CIDR ranges, and names the variable and the bad entry', () => {
    expect(readServeEnv({}).trustedProxies).toBeUndefined();
    expect(readServeEnv({ CACHEBOARD_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8,::1,fd00::/8' }).trustedProxies).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
    ]);
    for (const bad of ['proxy.example', '10.0.0.0/33', '0.0.0.0/0', '10.0.0.1/8/8', '::/129', '127.0.0.1,', '10.0.0.0/x']) {
      const entry = bad.endsWith(',') ? '' : bad;
      expect(() => readServeEnv({ CACHEBOARD_TRUSTED_PROXIES: bad }), bad).toThrow(`CACHEBOARD_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range`);
    }
  });

  it('reads CACHEBOARD_WS_BUFFER_MB as whole megabytes, and names the variable when it is wrong', () => {
    expect(readServeEnv({}).wsBufferBytes).toBeUndefined();
    expect(readServeEnv({ CACHEBOARD_WS_BUFFER_MB: '16' }).wsBufferBytes).toBe(16 << 20);
    for (const bad of ['0', '1.5', 'lots'])
      expect(() => readServeEnv({ CACHEBOARD_WS_BUFFER_MB: bad })).toThrow(`CACHEBOARD_WS_BUFFER_MB must be a whole number of megabytes, not "${bad}"`);
  });

  it('knows loopback addresses', () => {
    expect(isLoopback('127.0.0.1')).toBe(true);
    expect(isLoopback('::1')).toBe(true);
    expect(isLoopback('0.0.0.0')).toBe(false);
    expect(isLoopback('10.1.2.3')).toBe(false);
  });
});
