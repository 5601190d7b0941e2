import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { valueFor, writeBulkInputs } from './bulkData';
import { cliArgs } from '../testing/cli';
import { argList, argValue, runChild } from './measure';

const round = (n: number) => Math.round(n);

const WAYS = ['csv', 'resp', 'ioredis'];
/** `--seed`: the nightly load that once took 29 minutes, as a CSV against the anchor only. */
const SEED_RECORDS = 17_200_000;

/**
 * The same N records loaded four ways into a freshly flushed private
 * redis-server; the anchor (`redis-cli --pipe`) is measured in the same run.
 * `--ways csv,resp,ioredis` picks the ways besides the anchor (all by default;
 * `--seed` is `--records 17200000 --ways csv`, the seed-sized run).
 */
export async function bulkBench(): Promise<Record<string, unknown>> {
  const seed = process.argv.includes('--seed');
  const n = argValue('records', seed ? SEED_RECORDS : 1_000_000);
  const valueBytes = argValue('value-bytes', 100);
  const ways = argList('ways', seed ? ['csv'] : WAYS);
  const unknown = ways.filter((w) => !WAYS.includes(w));
  if (unknown.length > 0) throw new Error(`--ways: unknown ${unknown.join(', ')} (known: ${WAYS.join(', ')})`);
  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-bulk-'));
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  const admin = new Redis({ host: server.host, port: server.port, lazyConnect: true });
  await admin.connect();
  try {
    const files = await writeBulkInputs(dir, n, valueBytes);
    const url = `redis://${server.host}:${server.port}/0`;
    const fresh = async () => {
      await admin.flushall();
    };
    const check = async (label: string) => {
      const size = await admin.dbsize();
      if (size !== n) throw new Error(`${label}: expected ${n} keys, found ${size}`);
    };

    const cli = async (file: string, extra: string[]) => {
      await fresh();
      const run = await runChild(process.execPath, cliArgs('load', file, '--url', url, '--json', ...extra));
      if (run.code !== 0) throw new Error(`cacheboard load failed (${run.code}): ${run.stderr}${run.stdout}`);
      await check(`cacheboard ${file}`);
      const report = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as { ops_per_sec: number; seconds: number; records: number; commands: number };
      return {
        // ops_per_sec counts commands, and an MSET carries many records: the rate compared is records/s.
        ops_per_sec: round((report.ops_per_sec * report.records) / Math.max(1, report.commands)),
        commands: report.commands,
        load_seconds: report.seconds,
        wall_seconds: run.seconds,
        wall_ops_per_sec: round(n / run.seconds),
        peak_rss_mb: Math.round(run.peakRssBytes / 1e5) / 10,
      };
    };

    const fromCsv = ways.includes('csv') ? await cli(files.csv, ['--key', 'key:{id}', '--value', 'value']) : undefined;
    const fromResp = ways.includes('resp') ? await cli(files.resp, []) : undefined;

    await fresh();
    const pipe = await runChild('redis-cli', ['-h', server.host, '-p', String(server.port), '--pipe'], { stdinFile: files.resp });
    if (pipe.code !== 0) throw new Error(`redis-cli --pipe failed: ${pipe.stderr}${pipe.stdout}`);
    await check('redis-cli --pipe');
    const anchor = round(n / pipe.seconds);

    const ioredisOps = ways.includes('ioredis') ? await viaIoredis() : undefined;

    const ratio = (x: number) => Math.round((x / anchor) * 100) / 100;
    const ratios = (r: NonNullable<typeof fromCsv>) => ({ ...r, ratio: ratio(r.ops_per_sec), wall_ratio: ratio(r.wall_ops_per_sec) });
    return {
      records: n,
      value_bytes: valueBytes,
      anchor: { name: 'redis-cli --pipe', ops_per_sec: anchor, seconds: pipe.seconds },
      ...(fromCsv ? { cacheboard_csv: ratios(fromCsv) } : {}),
      ...(fromResp ? { cacheboard_resp: ratios(fromResp) } : {}),
      ...(ioredisOps !== undefined ? { ioredis_pipeline_1000: { ops_per_sec: ioredisOps, ratio: ratio(ioredisOps) } } : {}),
      note: 'ops_per_sec of cacheboard is records/s of the load phase as it measures itself (default swap mode); wall_* from process start to exit, wall_ratio against the anchor',
    };

    async function viaIoredis(): Promise<number> {
      await fresh();
      const client = new Redis({ host: server.host, port: server.port });
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i += 1000) {
        const p = client.pipeline();
        for (let j = i; j < Math.min(n, i + 1000); j++) p.set(`key:${j}`, valueFor(j, valueBytes));
        await p.exec();
      }
      const ioSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
      client.disconnect();
      await check('ioredis');
      return round(n / ioSeconds);
    }
  } finally {
    admin.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
