import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { LoadEvent, LoadReport } from '../../../../app/schemas/bulk';
import { parseHostPort } from '../../../../app/hostPort';
import { useCluster } from '../../../../testing/cluster';
import { profileRegistry, specFor } from '../../../../testing/profiles';
import { eventually } from '../../../../testing/redis';
import { Pool } from '../../pool/pool';
import type { ProfileSpec } from '../../pool/types';
import type { InputFormat, LoadMode, Mapping } from '../types';
import { journalConnection } from '../job/journalConnection';
import { restorePendingSaves, writeJournal } from '../job/saveJournal';
import { runClusterLoad } from './clusterLoadJob';
import { slotOf } from '../../resp/slot';

const cluster = useCluster();
const dir = mkdtempSync(join(tmpdir(), 'cb-cluster-load-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function clusterSpec(): ProfileSpec {
  const seeds = cluster()
    .addresses.slice(0, 2)
    .map((a) => {
      const at = parseHostPort(a, 0);
      if ('error' in at) throw new Error(at.error);
      return at;
    });
  return specFor(seeds[0] ?? { port: 1 }, { name: 'cluster', topology: { kind: 'cluster', seeds } });
}

async function load(
  path: string,
  o: {
    format: InputFormat;
    mode: LoadMode;
    mapping?: Mapping;
    maxErrors?: number;
    bgsave?: boolean;
    allowEmpty?: boolean;
    allowEvictionRisk?: boolean;
    waitReplicas?: number;
    waitTimeoutMs?: number;
    onEvent?: (e: LoadEvent) => void;
  },
): Promise<LoadReport> {
  const pool = new Pool(profileRegistry({ c: clusterSpec() }));
  try {
    return await runClusterLoad(
      {
        jobId: `load_${Math.random().toString(36).slice(2, 10)}`,
        path,
        fileLabel: path.split('/').pop() ?? path,
        format: o.format,
        mode: o.mode,
        ...(o.mapping === undefined ? {} : { mapping: o.mapping }),
        targetDb: 0,
        force: false,
        maxErrors: o.maxErrors ?? 0,
        bgsave: o.bgsave ?? false,
        allowEmpty: o.allowEmpty ?? false,
        maxShrink: 50,
        allowEvictionRisk: o.allowEvictionRisk ?? false,
        allowLiveWrites: false,
        ...(o.waitReplicas === undefined ? {} : { waitReplicas: o.waitReplicas }),
        ...(o.waitTimeoutMs === undefined ? {} : { waitTimeoutMs: o.waitTimeoutMs }),
        journalDir: join(dir, 'journal'),
        masters: () => pool.masters('c'),
        control: (address) => pool.dedicated('c', { purpose: 'bulk', db: 0, address }),
      },
      (e) => o.onEvent?.(e),
      new AbortController().signal,
    );
  } finally {
    await pool.shutdown();
  }
}

async function withClient<T>(fn: (c: Cluster) => Promise<T>): Promise<T> {
  const c = new Cluster(
    cluster()
      .addresses.slice(0, 1)
      .map((a) => ({ host: '127.0.0.1', port: Number(a.split(':')[1]) })),
  );
  try {
    return await fn(c);
  } finally {
    c.disconnect();
  }
}

/** Every master now (roles change after a failover), each as a client. */
async function masters(): Promise<Redis[]> {
  const out: Redis[] = [];
  for (const n of cluster().nodes) {
    const r = new Redis({ port: n.port, lazyConnect: true, retryStrategy: () => null });
    await r.connect();
    if ((await r.info('replication')).includes('role:master')) out.push(r);
    else r.disconnect();
  }
  return out;
}

async function summedDbsize(): Promise<number> {
  const ms = await masters();
  const sizes = await Promise.all(ms.map((m) => m.dbsize()));
  for (const m of ms) m.disconnect();
  return sizes.reduce((a, b) => a + b, 0);
}

/** n SETs of small values, as RESP, written fast. */
function respSets(name: string, n: number, prefix = 'key'): string {
  const parts: string[] = [];
  for (let i = 0; i < n; i++) {
    const k = `${prefix}:${i}`;
    const v = `v${i}`;
    parts.push(`*3\r\n$3\r\nSET\r\n$${k.length}\r\n${k}\r\n$${v.length}\r\n${v}\r\n`);
  }
  const path = join(dir, name);
  writeFileSync(path, parts.join(''));
  return path;
}

async function sampleMatches(n: number, prefix: string, valueOf: (i: number) => string | null): Promise<void> {
  await withClient(async (c) => {
    for (let j = 0; j < 500; j++) {
      const i = Math.floor(Math.random() * n);
      expect(await c.get(`${prefix}:${i}`)).toBe(valueOf(i));
    }
  });
}

describe('cluster bulk load', () => {
  it('routes 1M SETs by slot in flush mode: summed DBSIZE equals the keys, per-master counts add up', async () => {
    await withClient((c) => c.set('old-key', 'gone after flush'));
    const n = 1_000_000;
    const report = await load(respSets('million.resp', n), { format: 'resp', mode: 'flush' });
    expect(report.error).toBeUndefined();
    expect(report).toMatchObject({ outcome: 'ok', commands: n, replies: n, errors: 0 });
    expect(report.verify).toMatchObject({ replies: true, keys: 'ok', expectedKeys: n, dbsize: n });
    expect(await summedDbsize()).toBe(n);
    expect(report.nodes).toHaveLength(3);
    expect(report.nodes?.reduce((a, x) => a + x.commands, 0)).toBe(n);
    for (const node of report.nodes ?? []) expect(node.commands).toBeGreaterThan(n / 4);
    expect(report.saveConfig?.restored).toBe(true);
    await sampleMatches(n, 'key', (i) => `v${i}`);
    expect(await withClient((c) => c.exists('old-key'))).toBe(0);
  }, 60_000);

  it('merges 1M SETs into the keys already there', async () => {
    const n = 1_000_000;
    await withClient((c) => c.set('kept', 'yes'));
    const report = await load(respSets('million-m.resp', n, 'm'), { format: 'resp', mode: 'merge' });
    expect(report).toMatchObject({ outcome: 'ok', commands: n, replies: n, errors: 0 });
    expect(await withClient((c) => c.get('kept'))).toBe('yes');
    await sampleMatches(n, 'm', (i) => `v${i}`);
  }, 60_000);

  it('with --bgsave, every master writes a snapshot after the load', async () => {
    const savesOf = async () => {
      const ms = await masters();
      const saves = await Promise.all(ms.map(async (m) => Number(/rdb_saves:(\d+)/.exec(await m.info('persistence'))?.[1])));
      for (const m of ms) m.disconnect();
      return saves;
    };
    const before = await savesOf();
    const phases: string[] = [];
    const report = await load(respSets('snap.resp', 3_000, 'snap'), {
      format: 'resp',
      mode: 'merge',
      bgsave: true,
      onEvent: (e) => {
        if (e.kind === 'phase') phases.push(e.phase);
      },
    });
    expect(report).toMatchObject({ outcome: 'ok', commands: 3_000, errors: 0, bgsave: { status: 'ok' } });
    expect(report.bgsave?.seconds).toBeGreaterThan(0);
    expect(phases).toContain('bgsave');
    expect(report.warnings.join(' ')).not.toMatch(/bgsave/i);
    const after = await savesOf();
    expect(after).toHaveLength(before.length);
    after.forEach((n, i) => expect(n).toBe((before[i] as number) + 1));
  }, 30_000);

  it("with --wait-replicas, waits for each master's replicas to reach its offset, and names a master short of them", async () => {
    const ok = await load(respSets('waited.resp', 3_000, 'waited'), { format: 'resp', mode: 'merge', waitReplicas: 1 });
    expect(ok).toMatchObject({ outcome: 'ok', errors: 0 });
    // One replica per master in the test cluster, each caught up with its master's offset.
    expect(ok.replicas).toHaveLength(cluster().replicas.length);
    expect(ok.replicas?.every((r) => r.acked)).toBe(true);
    expect(ok.warnings.join(' ')).not.toMatch(/replica/i);

    const short = await load(respSets('short.resp', 300, 'short'), { format: 'resp', mode: 'merge', waitReplicas: 2, waitTimeoutMs: 1_500 });
    expect(short.outcome).toBe('ok');
    const shortfalls = short.warnings.filter((w) => /Only 1 of 2 replicas acknowledged the load within 1.5 s \(the master has 1 connected\)/.test(w));
    expect(shortfalls).toHaveLength(cluster().masters.length);
  }, 30_000);

  it('maps CSV rows to hashes whose key holds a hash tag, HSET and EXPIRE on one master', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `${i},name-${i},city-${i % 7}`);
    const path = join(dir, 'users.csv');
    writeFileSync(path, `id,name,city\n${rows.join('\n')}\n`);
    const report = await load(path, { format: 'csv', mode: 'merge', mapping: { key: '{{user:{id}}}:profile', type: 'hash', ttl: 3600 } });
    expect(report).toMatchObject({ outcome: 'ok', commands: 6000, errors: 0 });
    await withClient(async (c) => {
      expect(await c.hgetall('{user:42}:profile')).toEqual({ name: 'name-42', city: 'city-0' });
      expect(await c.ttl('{user:2999}:profile')).toBeGreaterThan(3000);
      expect(Number(await c.call('CLUSTER', 'KEYSLOT', '{user:42}:profile'))).toBe(slotOf('user:42'));
    });
  }, 30_000);

  it('sends CSV string rows without a ttl as a SET each, routed by slot (an MSET would span slots)', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `${i},v-${i}`);
    const path = join(dir, 'strings.csv');
    writeFileSync(path, `id,value\n${rows.join('\n')}\n`);
    const report = await load(path, { format: 'csv', mode: 'merge', mapping: { key: 's:{id}', type: 'string', value: 'value' } });
    // One MSET across slots would be refused with CROSSSLOT: no errors and a command per row.
    expect(report).toMatchObject({ outcome: 'ok', records: 3000, commands: 3000, errors: 0 });
    await withClient(async (c) => {
      expect(await c.get('s:2999')).toBe('v-2999');
    });
  }, 30_000);

  it('agrees with CLUSTER KEYSLOT, hash tags included', async () => {
    await withClient(async (c) => {
      for (const k of ['', 'a', '{user1000}.following', 'foo{}{bar}', 'foo{{bar}}zap', '{a', 'ü€', ...Array.from({ length: 100 }, (_, i) => `k:${i * 7919}`)]) {
        expect(slotOf(k)).toBe(Number(await c.call('CLUSTER', 'KEYSLOT', k)));
      }
    });
  });

  it('refuses swap with the reason and touches nothing', async () => {
    const path = respSets('swap.resp', 10, 'swap');
    const report = await load(path, { format: 'resp', mode: 'swap' });
    expect(report.outcome).toBe('failed');
    expect(report.error?.code).toBe('UNSUPPORTED');
    expect(report.error?.message).toContain('SWAPDB is disabled in cluster mode');
    expect(await withClient((c) => c.exists('swap:1'))).toBe(0);
  });

  it('refuses a multi-key command across slots at its input line', async () => {
    const path = join(dir, 'cross.txt');
    writeFileSync(path, 'SET {t}a 1\nMSET {t}b 2 {t}c 3\nMSET x 1 y 2\nSET {t}d 4\n');
    const report = await load(path, { format: 'commands', mode: 'merge' });
    expect(report.outcome).toBe('failed');
    expect(report.error?.message).toMatch(/cross\.txt:3: CROSSSLOT: MSET's keys "x" and "y"/);
    expect(await withClient((c) => c.mget('{t}a', '{t}c', '{t}d'))).toEqual(['1', '3', null]);
  });

  it('follows ASK then MOVED while a slot migrates mid-load: the end state is sequential execution', async () => {
    const hot = 'hot';
    const slot = slotOf(hot);
    const lines: string[] = [];
    const expected = new Map<string, string>();
    for (let i = 0; i < 400_000; i++) {
      const k = i % 3 === 0 ? `{${hot}}:${i % 5000}` : `cold:${i % 20000}`;
      if (i % 11 === 0) {
        lines.push(`DEL ${k}`);
        expected.delete(k);
      } else {
        lines.push(`SET ${k} ${i}`);
        expected.set(k, String(i));
      }
    }
    const path = join(dir, 'ordered.txt');
    writeFileSync(path, `${lines.join('\n')}\n`);
    const migrate = await prepareMigration(slot);
    let migration: Promise<void> | undefined;
    const report = await load(path, {
      format: 'commands',
      mode: 'merge',
      onEvent: (e) => {
        if (e.kind === 'progress' && migration === undefined && e.commands > 5_000) migration = migrate();
      },
    });
    await migration;
    expect(report.error).toBeUndefined();
    expect(report).toMatchObject({ outcome: 'ok', commands: lines.length, errors: 0 });
    expect((report.redirects?.ask ?? 0) + (report.redirects?.moved ?? 0)).toBeGreaterThan(0);
    await withClient(async (c) => {
      for (const [k, v] of expected) if (k.startsWith('{')) expect(await c.get(k)).toBe(v);
      for (let i = 0; i < 5000; i++) {
        const k = `{${hot}}:${i}`;
        if (!expected.has(k)) expect(await c.exists(k)).toBe(0);
      }
    });
  }, 60_000);

  it('cacheboard load --cluster loads by slot, --json adds nodes; without --mode it says what to do', async () => {
    const path = respSets('cli.resp', 3000, 'cli');
    const seed = cluster().addresses[1] as string;
    const cli = (extra: string[]) =>
      spawnSync(process.execPath, ['bin/cacheboard.js', 'load', path, '--cluster', '--url', `redis://${seed}`, ...extra], {
        encoding: 'utf8',
        env: { ...process.env, CACHEBOARD_DATA_DIR: join(dir, 'cli-data') },
      });
    const missing = cli(['--json']);
    expect(missing.status).not.toBe(0);
    expect(missing.stderr).toContain('--mode merge');
    const r = cli(['--mode', 'merge', '--json']);
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout) as { commands: number; mode: string; nodes: { address: string; commands: number }[] };
    expect(j).toMatchObject({ commands: 3000, mode: 'merge', outcome: 'ok' });
    expect(j.nodes).toHaveLength(3);
    expect(j.nodes.reduce((a, n) => a + n.commands, 0)).toBe(3000);
    expect(await withClient((c) => c.get('cli:2999'))).toBe('v2999');
  }, 30_000);

  it('restores a journaled save config on a cluster master at the next start', async () => {
    const m = (await masters())[0] as Redis;
    const port = m.options.port as number;
    await m.config('SET', 'save', '');
    const journalDir = join(dir, 'crash-journal');
    writeJournal(journalDir, { host: '127.0.0.1', port, original: '3600 1', jobId: 'load_crashed', at: Date.now() });
    const pool = new Pool(profileRegistry({ c: clusterSpec() }));
    try {
      const profiles = [{ id: 'c', source: 'user' as const, spec: clusterSpec() }];
      const results = await restorePendingSaves(journalDir, (host, p) => journalConnection(profiles, pool, host, p));
      expect(results.map((r) => r.action)).toEqual(['restored']);
      expect(await m.config('GET', 'save')).toEqual(['save', '3600 1']);
    } finally {
      await pool.shutdown();
      m.disconnect();
    }
  });

  it('follows MOVED to the new master after a CLUSTER FAILOVER mid-load, nothing lost or doubled', async () => {
    // Started at the first progress event (~0.1 s in) of a ~1 s load, so the switch lands mid-load
    // however fast the loader is; CLUSTER FAILOVER pauses the old master's clients while it happens.
    const n = 1_000_000;
    const path = respSets('failover.resp', n, 'fo');
    let failover: Promise<void> | undefined;
    const report = await load(path, {
      format: 'resp',
      mode: 'flush',
      onEvent: (e) => {
        if (e.kind === 'progress' && failover === undefined && e.commands > 0) failover = failOver();
      },
    });
    await failover;
    expect(report.error).toBeUndefined();
    expect(report).toMatchObject({ outcome: 'ok', commands: n, errors: 0 });
    expect(report.redirects?.moved).toBeGreaterThan(0);
    expect(report.nodes?.length).toBe(4);
    expect(report.verify).toMatchObject({ keys: 'ok', dbsize: n });
    expect(await summedDbsize()).toBe(n);
    await sampleMatches(n, 'fo', (i) => `v${i}`);
  }, 60_000);
});

describe('cluster bulk load guards', () => {
  async function onMasters(fn: (m: Redis) => Promise<unknown>): Promise<void> {
    const ms = await masters();
    try {
      for (const m of ms) await fn(m);
    } finally {
      for (const m of ms) m.disconnect();
    }
  }

  it('flush refuses an empty input while the cluster holds keys, before any FLUSHDB; --allow-empty flushes', async () => {
    await onMasters((m) => m.flushall());
    await withClient(async (c) => {
      for (let i = 0; i < 30; i++) await c.set(`keep:${i}`, 'v');
    });
    const path = join(dir, 'empty.resp');
    writeFileSync(path, '');
    const refused = await load(path, { format: 'resp', mode: 'flush' });
    expect(refused).toMatchObject({ outcome: 'failed', keyCounts: { new: 0, live: 30 }, error: { code: 'VALIDATION', field: 'allowEmpty' } });
    expect(refused.error?.message).toMatch(
      /^The input has no commands, so the new dataset holds 0 keys and the live DB 0 holds 30 keys: flush mode would empty DB 0\. .*The cluster was not touched/,
    );
    expect(await summedDbsize()).toBe(30);

    const allowed = await load(path, { format: 'resp', mode: 'flush', allowEmpty: true });
    expect(allowed.outcome).toBe('ok');
    expect(await summedDbsize()).toBe(0);
  });

  it('refuses input that SELECTs another DB as a failure naming SELECT, not as a cancel', async () => {
    const path = join(dir, 'select.txt');
    writeFileSync(path, 'SET {sel}a 1\nSELECT 1\nSET {sel}b 2\n');
    const report = await load(path, { format: 'commands', mode: 'merge' });
    expect(report).toMatchObject({
      outcome: 'failed',
      error: { code: 'VALIDATION', message: expect.stringContaining('The input contains SELECT, which reaches past DB 0 that this load writes') },
    });
    expect(await withClient((c) => c.exists('{sel}b'))).toBe(0);
  });

  it('an evicting policy: refused at preflight when the input does not fit; with the override, stopped at the first eviction', async () => {
    const n = 300_000;
    const path = respSets('evict.resp', n, 'ev');
    await onMasters((m) => m.flushall());
    await withClient(async (c) => {
      for (let i = 0; i < 300; i++) await c.set(`live:${i}`, 'v');
    });
    try {
      await onMasters(async (m) => {
        const used = Number(/used_memory:(\d+)/.exec(await m.info('memory'))?.[1]);
        await m.config('SET', 'maxmemory', String(used + 256 * 1024));
        await m.config('SET', 'maxmemory-policy', 'allkeys-lru');
      });
      const refused = await load(path, { format: 'resp', mode: 'merge' });
      expect(refused).toMatchObject({ outcome: 'failed', commands: 0, error: { code: 'VALIDATION', field: 'allowEvictionRisk' } });
      expect(refused.error?.message).toMatch(/maxmemory-policy allkeys-lru makes Redis evict keys of any DB.*The cluster was not touched/);
      expect(await summedDbsize()).toBe(300);

      const stopped = await load(path, { format: 'resp', mode: 'merge', allowEvictionRisk: true });
      expect(stopped).toMatchObject({ outcome: 'failed', error: { code: 'REDIS' } });
      expect(stopped.error?.message).toMatch(
        /^Redis evicted \d+ keys? during the load on the cluster's masters .*allkeys-lru.*the load stopped at the first eviction.*The cluster is partially loaded/,
      );
      expect(stopped.evictedKeys).toBeGreaterThan(0);
      expect(stopped.commands).toBeLessThan(n);
    } finally {
      await onMasters(async (m) => {
        await m.config('SET', 'maxmemory', '0');
        await m.config('SET', 'maxmemory-policy', 'noeviction');
      });
    }
  }, 30_000);
});

/**
 * Move `slot` to another master by hand, as redis-cli --cluster reshard does:
 * IMPORTING, MIGRATING, MIGRATE in small steps, then NODE. Connected ahead, so
 * it starts the moment the load is under way.
 */
async function prepareMigration(slot: number): Promise<() => Promise<void>> {
  const ms = await masters();
  const ids = await Promise.all(ms.map(async (m) => String(await m.call('CLUSTER', 'MYID'))));
  const ownerId = String(await (ms[0] as Redis).call('CLUSTER', 'NODES'))
    .split('\n')
    .find(
      (l) =>
        l.includes('master') &&
        l
          .split(' ')
          .slice(8)
          .some((r) => inRange(r, slot)),
    )
    ?.split(' ')[0];
  const from = ids.indexOf(ownerId ?? '');
  const to = (from + 1) % ms.length;
  const src = ms[from] as Redis;
  const dst = ms[to] as Redis;
  const dstPort = dst.options.port as number;
  const move = async (count: number): Promise<number> => {
    const keys = (await src.call('CLUSTER', 'GETKEYSINSLOT', slot, count)) as string[];
    if (keys.length > 0) await src.call('MIGRATE', '127.0.0.1', dstPort, '', 0, 5000, 'REPLACE', 'KEYS', ...keys);
    return keys.length;
  };
  return async () => {
    try {
      await dst.call('CLUSTER', 'SETSLOT', slot, 'IMPORTING', ids[from] as string);
      await src.call('CLUSTER', 'SETSLOT', slot, 'MIGRATING', ids[to] as string);
      for (let round = 0; round < 30 && (await move(20)) > 0; round++) await new Promise((r) => setTimeout(r, 3));
      while ((await move(500)) > 0);
      for (const m of ms) await m.call('CLUSTER', 'SETSLOT', slot, 'NODE', ids[to] as string);
    } finally {
      for (const m of ms) m.disconnect();
    }
  };
}

function inRange(r: string, slot: number): boolean {
  const [a, b] = r.split('-').map(Number);
  return a !== undefined && slot >= a && slot <= (b ?? a);
}

/** CLUSTER FAILOVER on a replica: it becomes master, its old master a replica answering MOVED. */
async function failOver(): Promise<void> {
  const replica = cluster().replicas[0];
  if (replica === undefined) throw new Error('no replica');
  const r = new Redis({ port: replica.port, lazyConnect: true, retryStrategy: () => null });
  await r.connect();
  try {
    await r.call('CLUSTER', 'FAILOVER');
    const ok = await eventually(async () => (await r.info('replication')).includes('role:master'), 10_000, 20);
    if (!ok) throw new Error('the failover did not happen');
  } finally {
    r.disconnect();
  }
}
