import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { SamplingReport } from '../../../app/schemas/sampling';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { specFor } from '../../../testing/profiles';
import { connectionFor } from '../resp/rawTarget';
import { typeIndex } from './aggregate';
import { Prober } from './probe';
import { fill, sampleOf } from './samplingTestKit';
import { ScriptProber } from './scriptProber';
import { openShards } from './shards';

const redis = useRedis();
afterAll(closeAdmins);
beforeEach(async () => {
  await (await adminClient(redis())).flushall();
});

/** Every type and the encodings two types share (listpack, hashtable), TTLs, a binary key. */
async function writeShapes(): Promise<number> {
  const admin = await adminClient(redis());
  await fill(admin, 300, (p, i) => p.set(`s:${i}`, i % 3 === 0 ? String(i) : 'v'.repeat(i % 3 === 1 ? 5 : 80)));
  await fill(admin, 100, (p, i) => p.expire(`s:${i}`, 30 + i * 100));
  await fill(admin, 20, (p, i) => p.hset(`h:${i}`, Object.fromEntries(Array.from({ length: i === 0 ? 600 : 2 + i }, (_, j) => [`f${j}`, 'v']))));
  await fill(admin, 20, (p, i) => p.sadd(`set:${i}`, ...Array.from({ length: i === 0 ? 200 : 3 + i }, (_, j) => (i % 2 === 0 ? `m${j}` : j))));
  await fill(admin, 20, (p, i) => p.zadd(`z:${i}`, ...Array.from({ length: i === 0 ? 200 : 2 + i }, (_, j) => [j, `p${j}`]).flat()));
  await fill(admin, 10, (p, i) => p.rpush(`l:${i}`, ...Array.from({ length: 1 + i }, (_, j) => `j${j}`)));
  await fill(admin, 5, (p, i) => p.xadd(`x:${i}`, '*', 'f', 'v'));
  await admin.set(Buffer.from([0xff, 0x00, 0x0d, 0x0a]), 'bin');
  return 300 + 20 * 3 + 10 + 5 + 1;
}

/**
 * A report's counts, without what depends on the moment (timing, TTLs left, INFO's dataset) or
 * on SCAN's order (which of equal counts or sizes is listed first, which ties make a top list).
 */
function counts(r: SamplingReport): unknown {
  const byName = <T>(rows: T[], name: (t: T) => string) => [...rows].sort((a, b) => name(a).localeCompare(name(b)));
  return {
    keys: [r.keysExamined, r.keysMissing, r.memoryTotal],
    types: r.types,
    encodings: byName(r.encodings, (e) => `${e.type}:${e.encoding}`),
    sizes: r.sizeHistograms,
    lengths: r.lengthHistograms,
    ttl: r.ttl.map((t) => [t.bucket, t.count]),
    top: [r.topByMemory.map((k) => k.memory), r.topByLength.map((k) => k.length), r.topStringsByLength.map((k) => k.length)],
    namespaces: byName(r.namespaces, (n) => n.prefix),
    warnings: r.warnings,
  };
}

async function evalshaCalls(): Promise<number> {
  const stats = String(await (await adminClient(redis())).info('commandstats'));
  return Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

describe('census by script', () => {
  it('gives the same report as plain commands on the same keyspace, in one EVALSHA a group', async () => {
    const total = await writeShapes();
    const before = await evalshaCalls();
    const script = (await sampleOf(redis(), { method: 'census' }, { tuning: { scriptGroupSize: 16 } })).report;
    expect(await evalshaCalls()).toBeGreaterThanOrEqual(before + Math.ceil(total / 16));
    const plain = (await sampleOf(redis(), { method: 'census' }, { tuning: { scripts: false, groupSize: 16 } })).report;
    expect(script.keysExamined).toBe(total);
    expect(counts(script)).toEqual(counts(plain));
    expect(script.warnings).toEqual([]);
  });

  it('counts a key gone between SCAN and its probe as missing, and measures the rest', async () => {
    const admin = await adminClient(redis());
    await admin.set('here', 'v');
    await admin.zadd('rank', 1, 'a', 2, 'b');
    const [shard] = await openShards([{ address: '', ...connectionFor(specFor(redis()), 0, 'cacheboard:test') }], 0, { scripts: true });
    if (shard === undefined) throw new Error('no shard');
    try {
      expect(shard.script).toBe(true);
      const added: unknown[][] = [];
      let missing = 0;
      const sink = { add: (...a: unknown[]) => void added.push(a), addMissing: () => void missing++ };
      const plain = new Prober(shard.pipe, sink, 5, false);
      await new ScriptProber(shard.pipe, sink, 5, false, null, plain).probe([Buffer.from('gone'), Buffer.from('here'), Buffer.from('rank')]);
      expect(missing).toBe(1);
      expect(added.map((a) => [String(a[0]), a[1], a[2], a[4], a[5]])).toEqual([
        ['here', typeIndex('string'), 'embstr', -1, 1],
        ['rank', typeIndex('zset'), 'listpack', -1, 2],
      ]);
      expect(added[0]?.[3]).toBe(Number(await admin.call('MEMORY', 'USAGE', 'here', 'SAMPLES', '5')));
    } finally {
      await shard.pipe.close();
    }
  });

  it('loads the script again when the server forgot it (SCRIPT FLUSH, a restart, a failover)', async () => {
    const admin = await adminClient(redis());
    await admin.set('here', 'v');
    const [shard] = await openShards([{ address: '', ...connectionFor(specFor(redis()), 0, 'cacheboard:test') }], 0, { scripts: true });
    if (shard === undefined) throw new Error('no shard');
    try {
      const added: unknown[][] = [];
      const sink = { add: (...a: unknown[]) => void added.push(a), addMissing: () => undefined };
      const prober = new ScriptProber(shard.pipe, sink, 5, false, null, new Prober(shard.pipe, sink, 5, false));
      await admin.script('FLUSH');
      const before = await evalshaCalls();
      await prober.probe([Buffer.from('here')]);
      expect(added.map((a) => String(a[0]))).toEqual(['here']);
      // NOSCRIPT, then SCRIPT LOAD and the same EVALSHA again: by script still, with nothing to report.
      expect(await evalshaCalls()).toBeGreaterThan(before);
      expect(prober.warnings()).toEqual([]);
    } finally {
      await shard.pipe.close();
    }
  });

  it('falls back to plain commands where the user may not run scripts, with the same counts', async () => {
    const total = await writeShapes();
    const admin = await adminClient(redis());
    const plain = (await sampleOf(redis(), { method: 'census' }, { tuning: { scripts: false } })).report;
    // No scripting at all: SCRIPT LOAD is refused when the shard opens.
    await admin.call('ACL', 'SETUSER', 'noscript', 'on', '>pw', '~*', '+@all', '-@scripting');
    // SCRIPT LOAD allowed, EVALSHA not: found on the first group.
    await admin.call('ACL', 'SETUSER', 'noevalsha', 'on', '>pw', '~*', '+@all', '-evalsha');
    for (const username of ['noscript', 'noevalsha']) {
      const before = await evalshaCalls();
      const { report } = await sampleOf(redis(), { method: 'census' }, { spec: { username, password: 'pw' } });
      expect(report.keysExamined).toBe(total);
      expect(counts({ ...report, warnings: [] })).toEqual(counts(plain));
      expect(await evalshaCalls()).toBe(before);
      if (username === 'noevalsha') expect(report.warnings.join()).toMatch(/census script was refused .*evalsha.*plain commands/i);
      else expect(report.warnings).toEqual([]);
    }
  });
});
