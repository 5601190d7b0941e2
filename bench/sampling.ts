import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { SamplingReport } from '../app/schemas/sampling';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { runSampling, type SamplingSettings } from '../main/core/sampling/runSampling';
import { connectionFor } from '../main/core/resp/rawTarget';
import { argValue, runChild } from './measure';
import { writeSamplingData } from './samplingData';

const r2 = (n: number) => Math.round(n * 100) / 100;

/**
 * A mixed keyspace of N keys (default 1M: mostly strings, some hashes, sets, zsets,
 * lists; TTLs on some; user:, session:, cache:, cart:… prefixes) in a private
 * redis-server, loaded with `redis-cli --pipe`. In the same run: the anchors
 * `redis-cli --memkeys` and `--bigkeys` (wall time), a census through the engine
 * in this process (what `cacheboard sample --full` runs), and a 10,000-key sample
 * compared with the census type by type.
 */
export async function samplingBench(): Promise<Record<string, unknown>> {
  const n = argValue('keys', 1_000_000);
  const samples = argValue('samples', 10_000);
  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-sampling-'));
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  const admin = new Redis({ host: server.host, port: server.port, lazyConnect: true });
  await admin.connect();
  const spec = { name: 'bench', host: server.host, port: server.port, db: 0, tls: { enabled: false, rejectUnauthorized: true } };
  const run = async (o: Partial<SamplingSettings>): Promise<{ seconds: number; report: SamplingReport }> => {
    const options: SamplingSettings = { method: 'census', samples, scanCount: 1000, pauseMs: 0, memorySamples: 5, db: 0, ...o };
    const t0 = process.hrtime.bigint();
    const end = await runSampling({ options, ...connectionFor(spec, 0, 'cacheboard:sampling:bench') }, () => undefined, new AbortController().signal);
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    if (end.kind !== 'done') throw new Error(`${options.method} ended ${end.kind}: ${end.kind === 'failed' ? end.error.message : ''}`);
    return { seconds, report: end.report };
  };
  try {
    const file = join(dir, 'keyspace.resp');
    await writeSamplingData(file, n);
    const cliArgs = ['-h', server.host, '-p', String(server.port)];
    const load = await runChild('redis-cli', [...cliArgs, '--pipe'], { stdinFile: file });
    if (load.code !== 0) throw new Error(`redis-cli --pipe failed: ${load.stderr}${load.stdout}`);
    const dbsize = await admin.dbsize();
    if (dbsize !== n) throw new Error(`expected ${n} keys, found ${dbsize}`);

    const census = await run({ method: 'census' });
    const memkeys = await runChild('redis-cli', [...cliArgs, '--memkeys']);
    const bigkeys = await runChild('redis-cli', [...cliArgs, '--bigkeys']);
    if (memkeys.code !== 0 || bigkeys.code !== 0) throw new Error(`redis-cli failed: ${memkeys.stderr}${bigkeys.stderr}`);
    const sample = await run({ method: 'sample' });

    const share = (r: SamplingReport) => new Map(r.types.map((t) => [t.type, t.percent]));
    const exact = share(census.report);
    const drawn = share(sample.report);
    const types = new Set([...exact.keys(), ...drawn.keys()]);
    const maxDiff = Math.max(...[...types].map((t) => Math.abs((exact.get(t) ?? 0) - (drawn.get(t) ?? 0))));
    const outside = sample.report.types.filter((t) => (exact.get(t.type) ?? 0) < t.ciLow || (exact.get(t.type) ?? 0) > t.ciHigh).map((t) => t.type);
    return {
      keys: n,
      anchor: { memkeys_seconds: r2(memkeys.seconds), bigkeys_seconds: r2(bigkeys.seconds) },
      census: {
        how: 'engine in-process (runSampling, as `cacheboard sample --full` runs it)',
        seconds: r2(census.seconds),
        keys_per_sec: Math.round(n / census.seconds),
        vs_memkeys: r2(memkeys.seconds / census.seconds),
        vs_bigkeys: r2(bigkeys.seconds / census.seconds),
        keys_examined: census.report.keysExamined,
      },
      sample: {
        samples,
        seconds: r2(sample.seconds),
        max_type_diff_pp: r2(maxDiff),
        types_outside_ci95: outside,
      },
      goals: {
        census_4x_memkeys: memkeys.seconds / census.seconds >= 4,
        sample_within_1pp: maxDiff <= 1,
        sample_under_300ms: sample.seconds < 0.3,
      },
    };
  } finally {
    admin.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
