import { describe, expect, it } from 'vitest';
import { memoryProjection, preflight, swapUnavailableReason, type PreflightPlan } from './preflight';
import { parseInfo } from '../../info/parseInfo';
import { factsFromInfo, type ServerFacts } from './serverFacts';

function facts(over: Partial<ServerFacts> = {}): ServerFacts {
  return {
    version: '7.0.15',
    mode: 'standalone',
    role: 'master',
    save: '3600 1',
    appendonly: 'no',
    databases: 16,
    usedMemory: 1_000_000,
    usedMemoryDataset: 200_000,
    maxmemory: 0,
    maxmemoryPolicy: 'noeviction',
    totalSystemMemory: 16 * 1024 ** 3,
    aofEnabled: false,
    bgsaveInProgress: false,
    aofRewriteInProgress: false,
    keyspace: new Map(),
    expiredKeys: 0,
    evictedKeys: 0,
    ...over,
  };
}

const plan = (over: Partial<PreflightPlan> = {}): PreflightPlan => ({
  mode: 'swap',
  targetDb: 0,
  bgsave: false,
  address: '10.0.0.5:6379',
  ...over,
});

describe('swap availability', () => {
  it('is refused on a cluster node, naming why', () => {
    expect(swapUnavailableReason('7.0.15', 'cluster')).toMatch(/cluster mode.*SWAPDB is refused/);
  });

  it('is refused before Redis 4.0', () => {
    expect(swapUnavailableReason('3.2.12', 'standalone')).toMatch(/4\.0.*3\.2\.12/);
    expect(swapUnavailableReason('4.0.0', 'standalone')).toBeUndefined();
    expect(swapUnavailableReason('6.2.14', 'standalone')).toBeUndefined();
  });

  it('refuses mode swap with a VALIDATION error suggesting flush or merge', () => {
    expect(() => preflight(facts({ mode: 'cluster' }), plan())).toThrow(
      expect.objectContaining({ code: 'VALIDATION', message: expect.stringMatching(/--mode flush or --mode merge/) }),
    );
    expect(() => preflight(facts({ version: '3.0.7' }), plan())).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
  });

  it('reads a Valkey cluster node (server_mode, no redis_mode) as cluster, comparing the Redis version it reports', () => {
    // Valkey's INFO server as in valkey-io/valkey-doc commands/info.md, shortened, in cluster mode.
    const info = parseInfo('# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.0.1\r\nserver_mode:cluster\r\n');
    const valkey = factsFromInfo(info);
    expect([valkey.version, valkey.mode]).toEqual(['7.2.4', 'cluster']);
    expect(() => preflight({ ...facts(), version: valkey.version, mode: valkey.mode }, plan())).toThrow(expect.objectContaining({ code: 'VALIDATION' }));
  });

  it('lets flush and merge run on a cluster node, warning about MOVED', () => {
    const r = preflight(facts({ mode: 'cluster' }), plan({ mode: 'merge' }));
    expect(r.warnings.join('\n')).toMatch(/MOVED/);
  });
});

describe('preflight refusals', () => {
  it('refuses a target or staging DB beyond `databases`', () => {
    expect(() => preflight(facts(), plan({ targetDb: 16 }))).toThrow(/target DB 16 does not exist.*16 databases \(0–15\)/);
    expect(() => preflight(facts(), plan({ stagingDb: 20 }))).toThrow(expect.objectContaining({ field: 'stagingDb' }));
  });

  it('refuses a replica and a Sentinel', () => {
    expect(() => preflight(facts({ role: 'slave', master: '10.0.0.1:6379' }), plan())).toThrow(/replica of 10\.0\.0\.1:6379/);
    expect(() => preflight(facts({ mode: 'sentinel' }), plan())).toThrow(/Sentinel/);
  });
});

describe('eviction refusal', () => {
  const tight = { maxmemory: 10_000_000, usedMemory: 8_000_000, usedMemoryDataset: 7_000_000 };

  it('refuses, naming allowEvictionRisk, when the input does not fit and the policy evicts', () => {
    for (const policy of ['allkeys-lru', 'allkeys-lfu', 'allkeys-random', 'volatile-lru', 'volatile-ttl']) {
      for (const mode of ['swap', 'merge'] as const) {
        expect(() => preflight(facts({ ...tight, maxmemoryPolicy: policy }), plan({ mode, inputBytes: 5_000_000 }))).toThrow(
          expect.objectContaining({
            code: 'VALIDATION',
            field: 'allowEvictionRisk',
            message: expect.stringContaining(`maxmemory-policy ${policy} makes Redis evict`),
          }),
        );
      }
    }
  });

  it('lets it start with allowEvictionRisk, under noeviction, without maxmemory, or when it fits', () => {
    const input = plan({ inputBytes: 5_000_000 });
    expect(preflight(facts({ ...tight, maxmemoryPolicy: 'allkeys-lru' }), { ...input, allowEvictionRisk: true }).warnings.join('\n')).toMatch(/may not fit/);
    expect(() => preflight(facts({ ...tight, maxmemoryPolicy: 'noeviction' }), input)).not.toThrow();
    expect(() => preflight(facts({ usedMemory: 8_000_000, maxmemoryPolicy: 'allkeys-lru' }), input)).not.toThrow();
    expect(() => preflight(facts({ ...tight, maxmemoryPolicy: 'allkeys-lru' }), plan({ inputBytes: 1_000_000 }))).not.toThrow();
  });

  it("flush counts the target's share of the dataset as freed, not the server's own overhead", () => {
    // 7 MB of the 8 MB used is data, all of it in the target: 1 MB stays, and 1 MB + 8.5 MB fits under 10 MB.
    const all = facts({ ...tight, maxmemoryPolicy: 'allkeys-lru', keyspace: new Map([[0, { keys: 100, expires: 0 }]]) });
    expect(() => preflight(all, plan({ mode: 'flush', inputBytes: 8_500_000 }))).not.toThrow();
    // 1 MB of overhead + 9.5 MB does not (counting all 8 MB used as freed, it would).
    expect(() => preflight(all, plan({ mode: 'flush', inputBytes: 9_500_000 }))).toThrow(expect.objectContaining({ field: 'allowEvictionRisk' }));
  });
});

describe('preflight warnings', () => {
  it('warns when the input may not fit under maxmemory', () => {
    const r = preflight(facts({ maxmemory: 10_000_000, usedMemory: 8_000_000 }), plan({ mode: 'merge', inputBytes: 5_000_000 }));
    expect(r.warnings.join('\n')).toMatch(/may not fit: maxmemory is 9\.5 MB/);
  });

  it('warns that swap holds both datasets at once', () => {
    const r = preflight(facts({ maxmemory: 10_000_000, usedMemory: 6_000_000 }), plan({ inputBytes: 5_000_000 }));
    expect(r.warnings.join('\n')).toMatch(/old and the new dataset at once/);
  });

  it('warns about copy-on-write doubling when a fork may run and memory is tight', () => {
    const gb = 1024 ** 3;
    const r = preflight(facts({ aofEnabled: true, usedMemory: 5 * gb, totalSystemMemory: 16 * gb }), plan({ inputBytes: 4 * gb }));
    expect(r.warnings.join('\n')).toMatch(/AOF rewrites.*double/);
    const roomy = preflight(facts({ aofEnabled: true, usedMemory: gb }), plan({ inputBytes: gb }));
    expect(roomy.warnings).toEqual([]);
  });

  it('says when CONFIG cannot be read, so saves cannot be turned off', () => {
    const r = preflight(facts({ save: undefined, configRefused: "ERR unknown command 'CONFIG'" }), plan());
    expect(r.warnings.join('\n')).toMatch(/CONFIG is not available.*left as configured/);
  });
});

describe('memoryProjection', () => {
  it('scales the growth so far to the whole input, once 5% is read', () => {
    expect(memoryProjection(100, 200, 1, 100)).toBeUndefined();
    expect(memoryProjection(1_000, 2_000, 25, 100)).toBe(5_000);
    expect(memoryProjection(1_000, 2_000, 25, undefined)).toBeUndefined();
  });
});
