import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { InfoSnapshot } from '../../../app/schemas/server';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { parseInfo } from './parseInfo';
import { expiredSubkeys, infoNumber, parseKeyspace, toInfoSnapshot } from './infoSnapshot';

describe('toInfoSnapshot on a small excerpt', () => {
  it('turns missing fields into 0 or "" and unparsable numbers into 0', () => {
    const snap = toInfoSnapshot(parseInfo('# Memory\r\nused_memory:abc\r\nused_memory_human:1.5M\r\n'), 7);
    expect(snap.at).toBe(7);
    expect(snap.memory.used).toBe(0);
    expect(snap.memory.usedHuman).toBe('1.5M');
    expect(snap.server.version).toBe('');
    expect(snap.role).toBe('');
    expect(snap.keyspace).toEqual([]);
    expect(InfoSnapshot.safeParse(snap).success).toBe(true);
  });

  it('orders keyspace entries by db number and skips non-db lines', () => {
    const text = '# Keyspace\r\ndb10:keys=2,expires=0,avg_ttl=0\r\ndb2:keys=5,expires=5,avg_ttl=123\r\nweird:1\r\n';
    expect(toInfoSnapshot(parseInfo(text), 0).keyspace).toEqual([
      { db: 2, keys: 5, expires: 5, avgTtl: 123 },
      { db: 10, keys: 2, expires: 0, avgTtl: 0 },
    ]);
  });

  it('rejects Infinity and blanks as numbers', () => {
    expect(infoNumber('Infinity')).toBe(0);
    expect(infoNumber(' ')).toBe(0);
    expect(infoNumber('1.25')).toBe(1.25);
  });
});

describe('toInfoSnapshot on a real server', () => {
  const redis = useRedis();
  afterAll(closeAdmins);

  it('reads what the server reports about itself, its clients and its keyspace', async () => {
    const proc = redis();
    const admin = await adminClient(proc);
    await admin.set('a', '1');
    await admin.set('b', '2', 'EX', 1000);
    const db3 = await adminClient(proc, { db: 3 });
    await db3.set('c', '3', 'EX', 500);

    const at = Date.now();
    const snap = toInfoSnapshot(parseInfo(await admin.info()), at);

    expect(InfoSnapshot.safeParse(snap).success).toBe(true);
    const version = /v=(\S+)/.exec(execFileSync('redis-server', ['--version'], { encoding: 'utf8' }))?.[1];
    expect(snap.server.version).toBe(version);
    expect(snap.server.mode).toBe('standalone');
    expect(snap.server.tcpPort).toBe(proc.port);
    expect(snap.server.os).toMatch(/Linux/);
    expect(snap.role).toBe('master');
    expect(snap.clients.connected).toBe(
      String(await admin.client('LIST'))
        .trim()
        .split('\n').length,
    );
    expect(snap.memory.used).toBeGreaterThan(0);
    expect(snap.memory.usedHuman).toMatch(/^[\d.]+[BKMG]$/);
    expect(snap.memory.fragmentation).toBeGreaterThan(0);
    expect(snap.stats.totalCommands).toBeGreaterThan(0);
    expect(snap.keyspace.map((k) => [k.db, k.keys, k.expires])).toEqual([
      [0, await admin.dbsize(), 1],
      [3, await db3.dbsize(), 1],
    ]);
    expect(Object.keys(snap.sections)).toEqual(
      expect.arrayContaining(['server', 'clients', 'memory', 'persistence', 'stats', 'replication', 'cpu', 'keyspace']),
    );
  });
});

describe('hash-field expiry in INFO (Redis 7.4+)', () => {
  // A fixture: the Redis 7.0 the tests run has no hash-field expiry to report.
  const text =
    '# Stats\r\nexpired_keys:3\r\nexpired_subkeys:17\r\n\r\n# Keyspace\r\ndb0:keys=5,expires=1,avg_ttl=100,subexpiry=2\r\ndb1:keys=4,expires=0,avg_ttl=0\r\n';

  it('keeps subexpiry where a keyspace line has it, and leaves it out where it does not', () => {
    expect(parseKeyspace(parseInfo(text)['keyspace'])).toEqual([
      { db: 0, keys: 5, expires: 1, avgTtl: 100, subexpiry: 2 },
      { db: 1, keys: 4, expires: 0, avgTtl: 0 },
    ]);
    expect(InfoSnapshot.safeParse(toInfoSnapshot(parseInfo(text), 0)).success).toBe(true);
  });

  it('reads expired_subkeys, and says nothing where the server does not report it', () => {
    expect(expiredSubkeys(parseInfo(text)['stats'])).toBe(17);
    expect(expiredSubkeys(parseInfo('# Stats\r\nexpired_keys:3\r\n')['stats'])).toBeUndefined();
  });
});
