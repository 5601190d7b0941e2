import { describe, expect, it } from 'vitest';
import { countersOf } from './counters';
import { deriveSample, downSample } from './derive';
import { infoFixture } from './infoTestKit';

const MASTER = '127.0.0.1:44335';
const REPLICA = '127.0.0.1:36233';

describe('deriveSample on a master', () => {
  const first = deriveSample(MASTER, 1000, infoFixture('master-first'));
  const second = deriveSample(MASTER, 2100, infoFixture('master-second'), first.counters);

  it('reads identity, memory against maxmemory, clients and keyspace', () => {
    const s = first.sample;
    expect(s).toMatchObject({ address: MASTER, at: 1000, up: true, role: 'master', version: '7.0.15', uptimeSeconds: 1 });
    expect(s.memory).toEqual({
      used: 1319456,
      peak: expect.any(Number),
      rss: expect.any(Number),
      fragmentation: expect.any(Number),
      maxmemory: 104857600,
      percentOfMax: 1.26,
    });
    expect(s.clients).toEqual({ connected: 1, blocked: 0, rejected: 0 });
    expect(s.keyspace).toEqual([
      { db: 0, keys: 500, expires: 100 },
      { db: 2, keys: 1, expires: 0 },
    ]);
    expect(s.persistence).toMatchObject({ rdbBgsaveInProgress: false, rdbLastBgsaveStatus: 'ok', aofEnabled: false });
    expect(s.persistence?.aofSizeBytes).toBeUndefined();
  });

  it('without a previous poll, uses the server instantaneous rates and the lifetime hit ratio', () => {
    expect(first.sample.traffic).toEqual({
      opsPerSec: 399,
      inputKbps: 43.17,
      outputKbps: 99,
      hitRatio: 0.83, // 100 hits, 20 misses
      evictionsPerSec: 0,
      expirationsPerSec: 0,
    });
  });

  it('with a previous poll, takes rates from the counters over the server clock interval', () => {
    // total_commands_processed 640 -> 944 over server_time_usec +1.095691 s
    expect(second.sample.traffic?.opsPerSec).toBeCloseTo(304 / 1.095691, 1);
    expect(second.sample.traffic?.inputKbps).toBeCloseTo((78986 - 70764) / 1024 / 1.095691, 1);
    // No GET between the two polls: no ratio rather than a stale one.
    expect(second.sample.traffic?.hitRatio).toBeNull();
  });

  it('lists replicas with lag = master_repl_offset - acknowledged offset, and lag seconds', () => {
    expect(second.sample.replication).toEqual({
      role: 'master',
      masterReplOffset: 76586,
      replicas: [
        { address: '127.0.0.1:36233', state: 'online', offset: 68463, lagBytes: 76586 - 68463, lagSeconds: 0 },
        { address: '127.0.0.1:35437', state: 'online', offset: 68463, lagBytes: 76586 - 68463, lagSeconds: 0 },
      ],
    });
  });

  it('ranks commands by total calls on the first poll, by calls per second after', () => {
    expect(first.sample.topCommands?.slice(0, 3)).toEqual([
      { command: 'set', calls: 501, callsPerSec: 0, usecPerCall: 2.78 },
      { command: 'get', calls: 120, callsPerSec: 0, usecPerCall: 2 },
      { command: 'replconf', calls: 8, callsPerSec: 0, usecPerCall: 77.75 },
    ]);
    const top = second.sample.topCommands ?? [];
    expect(top[0]).toMatchObject({ command: 'incr', calls: 300 });
    expect(top[0]?.callsPerSec).toBeCloseTo(300 / 1.095691, 1);
    expect(top.find((c) => c.command === 'set')).toMatchObject({ calls: 501, callsPerSec: 0 });
    expect(top.length).toBeLessThanOrEqual(10);
  });

  it('does not take rates across a restart (another run_id)', () => {
    const restarted = { ...first.counters, runId: 'another-run', totalCommands: 10 };
    expect(deriveSample(MASTER, 2100, infoFixture('master-second'), restarted).sample.traffic?.opsPerSec).toBe(152);
  });
});

describe('deriveSample on a replica', () => {
  it('reads the master address, link status and its own offset; percentOfMax is null without maxmemory', () => {
    const s = deriveSample(REPLICA, 1000, infoFixture('replica')).sample;
    expect(s.role).toBe('replica');
    expect(s.replication).toEqual({
      role: 'replica',
      masterAddress: MASTER,
      masterLinkStatus: 'up',
      masterReplOffset: 68463,
      replicaOffset: 68463,
      replicas: [],
    });
    expect(s.memory?.maxmemory).toBe(0);
    expect(s.memory?.percentOfMax).toBeNull();
  });

  it('reports a link down and since when', () => {
    const s = deriveSample(REPLICA, 1000, infoFixture('replica-link-down')).sample;
    expect(s.replication).toMatchObject({ masterLinkStatus: 'down', masterLinkDownSinceSeconds: 2 });
  });
});

describe('deriveSample persistence', () => {
  it('reports the AOF size when appendonly is on', () => {
    const s = deriveSample('127.0.0.1:33771', 1000, infoFixture('aof-on')).sample;
    expect(s.persistence).toMatchObject({ aofEnabled: true, aofSizeBytes: 50, aofLastRewriteStatus: 'ok' });
  });

  it('reads latest_fork_usec from stats', () => {
    expect(deriveSample(MASTER, 1, infoFixture('master-second')).sample.persistence?.latestForkUsec).toBe(398);
  });
});

describe('counters', () => {
  it('per-second rates of evictions and expirations come from counter increases', () => {
    const base = infoFixture('master-first');
    const later = infoFixture('master-second');
    const stats = later['stats'] ?? {};
    later['stats'] = { ...stats, evicted_keys: '22', expired_keys: '11' };
    const prev = countersOf(base, 0);
    const t = deriveSample(MASTER, 1, later, prev).sample.traffic;
    expect(t?.evictionsPerSec).toBeCloseTo(22 / 1.095691, 1);
    expect(t?.expirationsPerSec).toBeCloseTo(11 / 1.095691, 1);
  });
});

describe('downSample', () => {
  it('carries only address, time, up=false, the status and the reason', () => {
    expect(downSample(MASTER, 5, 'connection refused')).toEqual({ address: MASTER, at: 5, up: false, status: 'unreachable', error: 'connection refused' });
    expect(downSample(MASTER, 5, 'no answer', 'slow')).toMatchObject({ up: false, status: 'slow' });
  });
});

describe('deriveSample of Valkey and Redis 8 fields', () => {
  it("names Valkey by its own version, and keeps Redis 8's expired_subkeys and subexpiry only where reported", () => {
    // INFO fields as valkey-io/valkey-doc commands/info.md shows them, and Redis 7.4+'s keyspace
    // subexpiry and stats expired_subkeys (redis/docs content/commands/info.md), shortened.
    const sections = {
      server: { redis_version: '7.2.4', server_name: 'valkey', valkey_version: '8.1.0', server_mode: 'standalone' },
      stats: { expired_subkeys: '42' },
      keyspace: { db0: 'keys=10,expires=2,avg_ttl=0,subexpiry=3' },
    };
    const { sample } = deriveSample(MASTER, 1000, sections);
    expect(sample).toMatchObject({ server: 'valkey', version: '8.1.0', expiredSubkeys: 42, keyspace: [{ db: 0, keys: 10, expires: 2, subexpiry: 3 }] });
    const older = deriveSample(MASTER, 1000, { server: { redis_version: '7.0.15' }, stats: {}, keyspace: { db0: 'keys=1,expires=0,avg_ttl=0' } }).sample;
    expect(older).toMatchObject({ server: 'redis', version: '7.0.15' });
    expect(older.expiredSubkeys).toBeUndefined();
  });
});
