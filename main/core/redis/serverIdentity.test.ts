import { afterAll, describe, expect, it } from 'vitest';
import { serverTitle } from '../../../app/redis/serverTitle';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { toInfoSnapshot } from '../info/infoSnapshot';
import { parseInfo } from '../info/parseInfo';
import { serverIdentity, serverIdentityOfText } from './serverIdentity';

// INFO server as Valkey answers it: the sample in valkey-io/valkey-doc commands/info.md (a dev
// build, hence 255.255.255), shortened; server_mode set to cluster to show it is read. Valkey keeps
// a compatibility redis_version of 7.2.4 and names no redis_mode.
const VALKEY_INFO_SERVER = [
  '# Server',
  'redis_version:7.2.4',
  'server_name:valkey',
  'valkey_version:255.255.255',
  'redis_git_sha1:b0d5a0f5',
  'server_mode:cluster',
  'os:Linux 6.1.0-18-amd64 x86_64',
  'executable:/home/viktor/repos/valkey/src/./valkey-server',
  'tcp_port:6379',
  'uptime_in_seconds:94798',
  '',
].join('\r\n');

describe('serverIdentity', () => {
  it("reads Valkey's own name, version and mode, keeping redis_version for the checks of a Redis feature", () => {
    expect(serverIdentityOfText(VALKEY_INFO_SERVER)).toEqual({ name: 'valkey', version: '255.255.255', redisVersion: '7.2.4', mode: 'cluster' });
  });

  it('reads a server that names itself nowhere as Redis, with redis_version and redis_mode', () => {
    expect(serverIdentity({ redis_version: '8.0.2', redis_mode: 'standalone' })).toEqual({
      name: 'redis',
      version: '8.0.2',
      redisVersion: '8.0.2',
      mode: 'standalone',
    });
    expect(serverIdentity(undefined)).toEqual({ name: 'redis', version: '', redisVersion: '', mode: '' });
  });

  it("the Overview's snapshot sees Valkey in cluster mode, not Redis 7.2.4 with a blank mode", () => {
    const snap = toInfoSnapshot(parseInfo(VALKEY_INFO_SERVER), 0).server;
    expect([snap.name, snap.version, snap.redisVersion, snap.mode]).toEqual(['valkey', '255.255.255', '7.2.4', 'cluster']);
  });

  it('is shown to a person by its own name', () => {
    expect(serverTitle('valkey', '8.0.1')).toBe('Valkey 8.0.1');
    expect(serverTitle('redis', '7.0.15')).toBe('Redis 7.0.15');
    expect(serverTitle(undefined, '7.0.15')).toBe('Redis 7.0.15');
    expect(serverTitle('keydb', '6.3.4')).toBe('keydb 6.3.4');
  });

  describe('against a real server', () => {
    const server = useRedis();
    afterAll(closeAdmins);

    it("reads this Redis's INFO server as redis, its version, standalone", async () => {
      const admin = await adminClient(server());
      const text = await admin.info('server');
      const id = serverIdentityOfText(text);
      expect(id.name).toBe('redis');
      expect(id.version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(id.version).toBe(id.redisVersion);
      expect(id.mode).toBe('standalone');
    });
  });
});
