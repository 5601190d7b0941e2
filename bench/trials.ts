import { Redis } from 'ioredis';
import type { VariantResult } from '../app/schemas/trials';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { privateConnector } from '../main/core/trials/connector';
import { runTrial } from '../main/core/trials/runTrial';
import { argValue, runChild } from './measure';

const r2 = (n: number) => Math.round(n * 100) / 100;

interface Figures {
  rps: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
}

type Command = 'set' | 'get';

/** `redis-benchmark --csv` lines: "SET","54377.38","0.605","0.168","0.591","0.871","1.039","6.591". */
function parseBenchmarkCsv(csv: string): Record<Command, Figures> {
  const rows = new Map<string, number[]>();
  for (const line of csv.trim().split('\n').slice(1)) {
    const [test, ...cells] = line.split(',').map((c) => c.replace(/"/g, ''));
    rows.set(String(test).toLowerCase(), cells.map(Number));
  }
  const of = (t: Command): Figures => {
    const c = rows.get(t);
    if (c === undefined) throw new Error(`redis-benchmark printed no ${t.toUpperCase()} line:\n${csv}`);
    const [rps, , , p50, p95, p99, max] = c as [number, number, number, number, number, number, number];
    return { rps: Math.round(rps), p50_ms: p50, p95_ms: p95, p99_ms: p99, max_ms: max };
  };
  return { set: of('set'), get: of('get') };
}

function figuresOf(v: VariantResult | undefined): Figures {
  if (v?.latency === undefined) throw new Error('the load trial reported no latency');
  return { rps: Math.round(v.opsPerSec), p50_ms: v.latency.p50Ms, p95_ms: v.latency.p95Ms, p99_ms: v.latency.p99Ms, max_ms: v.latency.maxMs };
}

/** The run with the most requests/s for each command: both tools get the same best-of-R. */
function best(runs: Record<Command, Figures>[]): Record<Command, Figures> {
  const top = (c: Command) => runs.map((r) => r[c]).reduce((a, b) => (b.rps > a.rps ? b : a));
  return { set: top('set'), get: top('get') };
}

/**
 * The load trial (as `cacheboard trials load` runs it, in this process) next to
 * `redis-benchmark -c C -n N -d D -r R -t set,get` against the same private
 * redis-server, alternating R times (default 3) so both see the same machine.
 */
export async function trialsBench(): Promise<Record<string, unknown>> {
  const clients = argValue('clients', 50);
  const n = argValue('requests', 100_000);
  const dataSize = argValue('data-size', 3);
  const keyspace = argValue('keyspace', 100_000);
  const runs = argValue('runs', 3);
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  const admin = new Redis({ host: server.host, port: server.port, lazyConnect: true });
  await admin.connect();
  const spec = { name: 'bench', host: server.host, port: server.port, db: 0, tls: { enabled: false, rejectUnauthorized: true } };

  const anchorRun = async () => {
    const args = ['-h', server.host, '-p', String(server.port), '-c', String(clients), '-n', String(n), '-d', String(dataSize), '-r', String(keyspace)];
    const run = await runChild('redis-benchmark', [...args, '-t', 'set,get', '--csv']);
    if (run.code !== 0) throw new Error(`redis-benchmark failed (${run.code}): ${run.stderr}`);
    // The trial refuses a DB holding keys of its own: redis-benchmark's go before it runs.
    await admin.flushall();
    return parseBenchmarkCsv(run.stdout);
  };
  const trialRun = async (i: number) => {
    const connector = privateConnector(spec);
    try {
      const settings = { trial: 'load', clients, n, dataSize, keyspace, db: 0, confirmNonEmpty: false } as const;
      const end = await runTrial({ runId: `bench${i}`, settings, spec, connector }, () => undefined, new AbortController().signal);
      if (end.kind !== 'done') throw new Error(`the load trial ended ${end.kind}: ${end.kind === 'failed' ? end.error.message : ''}`);
      if (end.report.variants.some((v) => v.errors > 0)) throw new Error(`the load trial got error replies: ${end.report.warnings.join('; ')}`);
      const [set, get] = end.report.variants;
      return { set: figuresOf(set), get: figuresOf(get) };
    } finally {
      await connector.close();
    }
  };

  try {
    const anchors: Record<Command, Figures>[] = [];
    const trials: Record<Command, Figures>[] = [];
    for (let i = 0; i < runs; i++) {
      anchors.push(await anchorRun());
      trials.push(await trialRun(i));
    }
    const anchor = best(anchors);
    const ours = best(trials);
    const ratio = (c: Command) => r2(ours[c].rps / anchor[c].rps);
    return {
      clients,
      requests: n,
      data_size: dataSize,
      keyspace,
      runs,
      anchor: { name: `redis-benchmark -c ${clients} -n ${n} -d ${dataSize} -r ${keyspace} -t set,get (best of ${runs})`, ...anchor },
      cacheboard: {
        how: 'load trial in-process (runTrial, as `cacheboard trials load` runs it), best of the same runs',
        set: { ...ours.set, ratio: ratio('set') },
        get: { ...ours.get, ratio: ratio('get') },
      },
      every_run_rps: {
        redis_benchmark: anchors.map((a) => [a.set.rps, a.get.rps]),
        cacheboard: trials.map((t) => [t.set.rps, t.get.rps]),
      },
      goals: { set_0_8x_redis_benchmark: ratio('set') >= 0.8, get_0_8x_redis_benchmark: ratio('get') >= 0.8 },
    };
  } finally {
    admin.disconnect();
    await server.stop();
  }
}
