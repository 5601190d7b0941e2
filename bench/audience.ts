import { Redis } from 'ioredis';
import { AudienceTrialOptions, DemoDataOptions, type AudienceQueryResult, type StrategyResult } from '../app/schemas/audience';
import { addDays } from '../main/core/audience/days';
import { loadDemo } from '../main/core/audience/demo/loadDemo';
import { runAudience } from '../main/core/audience/runAudience';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { summarize } from '../main/core/audience/timings';
import { connectionFor } from '../main/core/resp/rawTarget';
import { argValue, startServe, wsRpc } from './measure';

/** The figures from a 2-core machine, printed beside ours. */
const REFERENCE_P50_MS = { 'bitmap-lua': 6, 'bitmap-pipeline': 11, zunionstore: 77, sets: 510 };
const WHERE = 'gender=f AND age=25-34 AND region=SA';

const r2 = (n: number) => Math.round(n * 100) / 100;
/** Untimed calls first: the server's kept connection, the script load, JIT. */
const WEB_WARMUP = 3;

/**
 * `audience.query` through `cacheboard serve` (WebSocket, dispatcher, validation both ways),
 * timed in the client from the call sent to its result received: the web API's answer time.
 */
async function webApi(redisUrl: string, query: { where: string; from: string; to: string }, runs: number) {
  const serve = await startServe(redisUrl);
  let client: Awaited<ReturnType<typeof wsRpc>> | undefined;
  try {
    client = await wsRpc(serve.base);
    const { rpc } = client;
    // REDIS_URL is the server's profile "env"; local mode is one ops session, which may call analyst calls.
    const call = () => rpc.invoke('audience.query', { profileId: 'env', ...query });
    for (let i = 0; i < WEB_WARMUP; i++) await call();
    const ms: number[] = [];
    const inServer: number[] = [];
    let last: AudienceQueryResult | undefined;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      last = await call();
      ms.push(performance.now() - t0);
      inServer.push(last.ms);
    }
    return { timing: summarize(ms), strategyP50: summarize(inServer).p50Ms, last: last as AudienceQueryResult };
  } finally {
    client?.close();
    await serve.stop();
  }
}

/**
 * The demo audience (default 1,000,000 users × 90 days, `--users`, `--days`) loaded in all
 * three layouts into a private redis-server, then a 3-attribute AND over the whole range,
 * `--trials` timed runs per strategy after a warm-up, exactly as `cacheboard audience` runs
 * it (client-side time from first command written to last reply read). Then the same query
 * through the web API: `cacheboard serve` on that server, `audience.query` over its WebSocket.
 */
export async function audienceBench(): Promise<Record<string, unknown>> {
  const users = argValue('users', 1_000_000);
  const days = argValue('days', 90);
  const trials = argValue('trials', 20);
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  const admin = new Redis({ host: server.host, port: server.port, lazyConnect: true });
  const spec = { name: 'bench', host: server.host, port: server.port, db: 0, tls: { enabled: false, rejectUnauthorized: true } };
  const signal = new AbortController().signal;
  try {
    await admin.connect();
    const { profileId: _p, db: _d, ...demo } = DemoDataOptions.parse({ profileId: 'bench', users, days, seed: 1 });
    const loaded = await loadDemo({ options: { ...demo, db: 0 }, ...connectionFor(spec, 0, 'cacheboard:demo:bench') }, () => undefined, signal);
    if (loaded.kind !== 'done') throw new Error(`demo data ${loaded.kind}: ${loaded.kind === 'failed' ? loaded.error.message : ''}`);
    const memory = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))?.[1] ?? 0);

    const {
      profileId,
      db: _db,
      ...options
    } = AudienceTrialOptions.parse({ profileId: 'bench', where: WHERE, from: demo.start, to: addDays(demo.start, days - 1), trials, warmup: 2 });
    const end = await runAudience(
      { profileId, reportId: 'bench', options: { ...options, db: 0 }, ...connectionFor(spec, 0, 'cacheboard:audience:bench') },
      () => undefined,
      signal,
    );
    if (end.kind !== 'done') throw new Error(`trial ${end.kind}: ${end.kind === 'failed' ? end.error.message : ''}`);
    const r = end.report;
    const ran = r.strategies.filter((s) => s.skipped === undefined);
    const best = ran.reduce<StrategyResult | undefined>((b, s) => (b === undefined || s.p50Ms < b.p50Ms ? s : b), undefined);
    const zunion = ran.find((s) => s.name === 'zunionstore');
    // 20 calls at least: the server's rate limit (50/s, bursts of 200) never slows them.
    const web = await webApi(server.url, { where: WHERE, from: options.from, to: options.to }, Math.max(20, trials));
    const webMatches = web.last.audienceSize === r.audienceSize && JSON.stringify(web.last.days) === JSON.stringify(r.days);
    const speedup = best && zunion ? r2(zunion.p50Ms / best.p50Ms) : null;
    return {
      users,
      days,
      where: r.normalized,
      audience_size: r.audienceSize,
      load: { seconds: loaded.report.seconds, keys: loaded.report.keys, commands: loaded.report.commands, used_memory_mb: Math.round(memory / 2 ** 20) },
      trials,
      strategies: Object.fromEntries(
        r.strategies.map((s) => [
          s.name,
          s.skipped !== undefined
            ? { skipped: s.skipped }
            : { min_ms: s.minMs, p50_ms: s.p50Ms, p95_ms: s.p95Ms, server_ms: s.serverMs, commands: s.commands, bytes_out: s.bytesOut, bytes_in: s.bytesIn },
        ]),
      ),
      counts_match: r.countsMatch,
      best: best?.name ?? null,
      zunionstore_over_best: speedup,
      web_api: {
        p50_ms: web.timing.p50Ms,
        p95_ms: web.timing.p95Ms,
        min_ms: web.timing.minMs,
        runs: Math.max(20, trials),
        strategy: web.last.strategy,
        strategy_p50_ms: web.strategyP50,
        counts_match_trial: webMatches,
      },
      anchor: { zunionstore_p50_ms: zunion?.p50Ms ?? null, reference_2core_p50_ms: REFERENCE_P50_MS },
      goals: {
        best_p50_le_8ms: best !== undefined && best.p50Ms <= 8,
        best_p50_le_20ms_web: web.timing.p50Ms <= 20,
        best_10x_zunionstore: speedup !== null && speedup >= 10,
        counts_match: r.countsMatch && webMatches,
      },
    };
  } finally {
    admin.disconnect();
    await server.stop();
  }
}
