import { statSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { spawnRedisServer, type RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { cliArgs } from '../testing/cli';
import { loadAverage, runChild } from './measure';
import { writeSamplingData } from './samplingData';
import { dbsize, exact, mb, pipeInto, r2, runKeysCli } from './keyActionsRun';

/** DEBUG DIGEST (the whole dataset: every key, type, value and whether it has a TTL) and INFO keyspace's db0 line. */
async function fingerprint(server: RedisProcess): Promise<{ digest: string; db0: string }> {
  const r = new Redis({ host: server.host, port: server.port });
  try {
    const digest = String(await r.call('DEBUG', 'DIGEST'));
    // keys=…,expires=…: the count of keys with a TTL must match too; avg_ttl drifts with time.
    const db0 = /db0:(keys=\d+,expires=\d+)/.exec(await r.info('keyspace'))?.[1] ?? 'empty';
    return { digest, db0 };
  } finally {
    r.disconnect();
  }
}

function same(label: string, a: { digest: string; db0: string }, b: { digest: string; db0: string }): void {
  if (a.digest !== b.digest || a.db0 !== b.db0) throw new Error(`${label}: ${JSON.stringify(b)} differs from the source ${JSON.stringify(a)}`);
}

/**
 * Export then load back: samplingData's mixed keyspace of N keys (strings, hashes, sets, zsets,
 * lists; TTLs on some) exported whole by `cacheboard keys export --match '*'` at the default pace,
 * then `cacheboard load --format resp` of that file into an empty server, and, as the anchor,
 * `redis-cli --pipe` of the same file into it once flushed. Each copy is compared with the source
 * by DEBUG DIGEST and its count of keys and of keys with a TTL.
 */
export async function exportBench(dir: string, n: number): Promise<Record<string, unknown>> {
  const seedFile = join(dir, 'mixed.resp');
  await writeSamplingData(seedFile, n);
  const args = ['--save', '', '--appendonly', 'no', '--enable-debug-command', 'yes'];
  const source = await spawnRedisServer({ args });
  const target = await spawnRedisServer({ args });
  try {
    await pipeInto(source, seedFile);
    exact('keys seeded', await dbsize(source), n);
    const want = await fingerprint(source);
    const loadBefore = loadAverage();

    const out = join(dir, 'export.resp');
    const exp = await runKeysCli(['export', '--url', `redis://${source.host}:${source.port}/0`, '--match', '*', '--out', out]);
    exact('exported', exp.report.exported, n);
    exact('errors', exp.report.errors, 0);

    const load = await runChild(process.execPath, cliArgs('load', out, '--format', 'resp', '--url', `redis://${target.host}:${target.port}/0`, '--json'));
    if (load.code !== 0) throw new Error(`cacheboard load failed (${load.code}): ${load.stderr}${load.stdout}`);
    same('cacheboard load', want, await fingerprint(target));

    const t = new Redis({ host: target.host, port: target.port });
    await t.flushall().finally(() => t.disconnect());
    const pipe = await pipeInto(target, out);
    same('redis-cli --pipe', want, await fingerprint(target));

    return {
      keys: n,
      data: 'mixed keyspace (bench/samplingData.ts): strings, hashes, sets, zsets, lists; TTLs on some',
      export: {
        seconds: r2(exp.run.seconds),
        cli_seconds: exp.report.seconds,
        exported: exp.report.exported,
        file_mb: mb(statSync(out).size),
        peak_rss_mb: mb(exp.run.peakRssBytes),
      },
      load: { how: 'cacheboard load --format resp (swap mode) into an empty server', seconds: r2(load.seconds), peak_rss_mb: mb(load.peakRssBytes) },
      anchor_load: { name: 'redis-cli --pipe of the same file', seconds: r2(pipe.seconds) },
      identical: {
        how: 'DEBUG DIGEST and INFO keyspace keys/expires, source against each copy',
        digest: want.digest,
        db0: want.db0,
        cacheboard_load: true,
        redis_cli_pipe: true,
      },
      load_average: { before: loadBefore, after: loadAverage() },
    };
  } finally {
    await Promise.all([source.stop(), target.stop()]);
  }
}
