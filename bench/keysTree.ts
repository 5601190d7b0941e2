import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import type { RpcClient } from '../app/rpcClient';
import type { StreamEvent } from '../app/contract';
import type { RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { argValue, loadAverage, runChild, startServe, wsRpc } from './measure';
import { startPingProbe, windowStats, type PingFigures } from './pingProbe';
import { expectedTop, writeKeysData } from './keysData';

const r2 = (n: number) => Math.round(n * 100) / 100;

/** Resident set size of a process, bytes (/proc). */
function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

function waitDone(rpc: RpcClient, jobId: string): Promise<StreamEvent<'keys.index.progress'>> {
  return new Promise((resolve, reject) => {
    let last: StreamEvent<'keys.index.progress'> | undefined;
    rpc.subscribe(
      'keys.index.progress',
      { jobId },
      {
        onEvents: (batch) => (last = batch.at(-1) ?? last),
        onEnd: (error) => (error !== undefined || last === undefined ? reject(error ?? new Error('no event')) : resolve(last)),
      },
    );
  });
}

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = process.hrtime.bigint();
  const value = await f();
  return { ms: r2(Number(process.hrtime.bigint() - t0) / 1e6), value };
}

/** One timed build of the tree through the web API, beside its anchor and the probe's windows. */
interface TreeRun {
  anchor_scan_wc_seconds: number;
  seconds: number;
  engine_seconds: number;
  vs_scan_wc: number;
  ping_ms_idle: PingFigures;
  ping_ms_during: PingFigures;
  ping_p99_rise_ms: number;
  server_scan_calls: number;
  server_scan_usec_per_call: number;
  server_slowest_command_ms: number;
  load_average_before: number;
  load_average_after: number;
}

const IDLE_MS = 2_000;

/**
 * One run: the anchor `redis-cli --scan | wc -l`, then the probe 2 s idle, then keys.index.start
 * (a Refresh after the first run) and its stream to the end while the probe keeps going. The
 * server's own view beside it, free of this box's CPU contention: SCAN's calls and mean time
 * per call (INFO commandstats) and the slowest command over 1 ms (LATENCY).
 */
async function treeRun(server: RedisProcess, rpc: RpcClient, n: number): Promise<{ run: TreeRun; end: StreamEvent<'keys.index.progress'> }> {
  const load_average_before = loadAverage();
  const cli = ['-h', server.host, '-p', String(server.port)];
  const anchor = await runChild('sh', ['-c', `redis-cli ${cli.join(' ')} --scan | wc -l`]);
  if (Number(anchor.stdout.trim()) !== n) throw new Error(`redis-cli --scan counted ${anchor.stdout.trim()} keys, not ${n}`);
  const admin = new Redis({ host: server.host, port: server.port });
  try {
    await admin.config('SET', 'latency-monitor-threshold', '1');
    await admin.call('LATENCY', 'RESET');
    const probe = await startPingProbe(server);
    await new Promise((r) => setTimeout(r, IDLE_MS));
    await admin.config('RESETSTAT');
    const t0 = performance.timeOrigin + performance.now();
    const { jobId } = await rpc.invoke('keys.index.start', { profileId: 'env' });
    const end = await waitDone(rpc, jobId);
    const t1 = performance.timeOrigin + performance.now();
    const samples = await probe.stop();
    const stats = String(await admin.info('commandstats'));
    const scan = /cmdstat_scan:calls=(\d+),usec=\d+,usec_per_call=([\d.]+)/.exec(stats);
    const latest = (await admin.call('LATENCY', 'LATEST')) as [string, number, number, number][];
    if (end.kind !== 'done') throw new Error(`index build ended ${end.kind}`);
    const idle = windowStats(samples, t0 - IDLE_MS + 200, t0);
    const during = windowStats(samples, t0, t1);
    const seconds = (t1 - t0) / 1000;
    return {
      end,
      run: {
        anchor_scan_wc_seconds: r2(anchor.seconds),
        seconds: r2(seconds),
        engine_seconds: r2(end.state.seconds),
        vs_scan_wc: r2(anchor.seconds / seconds),
        ping_ms_idle: idle,
        ping_ms_during: during,
        ping_p99_rise_ms: r2(during.p99 - idle.p99),
        server_scan_calls: Number(scan?.[1] ?? NaN),
        server_scan_usec_per_call: Number(scan?.[2] ?? NaN),
        server_slowest_command_ms: latest.find((e) => e[0] === 'command')?.[3] ?? 0,
        load_average_before,
        load_average_after: loadAverage(),
      },
    };
  } finally {
    admin.disconnect();
  }
}

/** N keys of keysData's mix (keyOf) into `server` with `redis-cli --pipe`, through a file in `dir`. */
export async function seedKeys(server: RedisProcess, dir: string, n: number): Promise<void> {
  const file = join(dir, 'keys.resp');
  await writeKeysData(file, n);
  const load = await runChild('redis-cli', ['-h', server.host, '-p', String(server.port), '--pipe'], { stdinFile: file });
  if (load.code !== 0) throw new Error(`redis-cli --pipe failed: ${load.stderr}${load.stdout}`);
}

/**
 * The tree part of `npm run bench -- keys`: N keys (default 1M; `--keys 10000000`) seeded
 * (seedKeys) into `server`; then `--tree-runs` runs (default 3) of the anchor
 * `redis-cli --scan | wc -l` and the index built through the web API (`cacheboard serve`,
 * keys.index.start at its default pace, its progress stream to the end), each with an
 * independent PING probe (pingProbe.mjs) idle and during the build and the load average beside
 * it; the counts checked against the generator; the serve process' RSS growth over the first
 * build; and the first 100 keys of the `rare:` folder (0.01% of the keys) by keys.tree and
 * keys.list through the same WebSocket.
 */
export async function keysTreeBench(server: RedisProcess, n: number): Promise<Record<string, unknown>> {
  const serve = await startServe(`redis://${server.host}:${server.port}/0`);
  const { rpc, close } = await wsRpc(serve.base);
  try {
    await rpc.invoke('keys.tree', { profileId: 'env', prefix: '' }); // connections up, modules loaded
    const rssBefore = rss(serve.pid);
    const runs: TreeRun[] = [];
    let rssGrowth = 0;
    let end: StreamEvent<'keys.index.progress'> | undefined;
    for (let i = 0; i < argValue('tree-runs', 3); i++) {
      const r = await treeRun(server, rpc, n);
      if (i === 0) rssGrowth = rss(serve.pid) - rssBefore;
      runs.push(r.run);
      end = r.end;
    }
    if (end === undefined || end.kind !== 'done') throw new Error('no tree run');

    const root = await timed(() => rpc.invoke('keys.tree', { profileId: 'env', prefix: '', limit: 5000 }));
    const want = expectedTop(n);
    const got = new Map(root.value.nodes.map((x) => [Buffer.from(x.ref.b64, 'base64').toString(), x.count]));
    const exact = end.state.scanned === n && [...want].every(([k, c]) => got.get(k) === c);
    const rare = Buffer.from('rare:').toString('base64');
    const first = await timed(() => rpc.invoke('keys.tree', { profileId: 'env', prefix: rare, limit: 100 }));
    const firstAgain = await timed(() => rpc.invoke('keys.tree', { profileId: 'env', prefix: rare, limit: 100 }));
    const listed = await timed(() => rpc.invoke('keys.list', { profileId: 'env', match: Buffer.from('rare:*').toString('base64'), limit: 100 }));
    const glob = await timed(() => rpc.invoke('keys.list', { profileId: 'env', match: Buffer.from('user:12:*').toString('base64'), limit: 100 }));
    const met = (r: TreeRun) => r.vs_scan_wc >= 5 && r.ping_p99_rise_ms <= 2;
    return {
      keys: n,
      tree: {
        how: 'web API: cacheboard serve, keys.index.start (default pace: 2 ms PING p99 budget) and its progress stream to the end; the PING probe is its own process',
        runs,
        exact_counts: exact,
        names: end.state.names,
        index_bytes: end.state.bytes,
        serve_rss_growth_mb: r2(rssGrowth / 2 ** 20),
      },
      folder_first_100: {
        how: 'web API round trip, index built',
        folder: 'rare:',
        folder_keys: got.get('rare:') ?? 0,
        tree_ms: first.ms,
        tree_again_ms: firstAgain.ms,
        list_ms: listed.ms,
        list_source: listed.value.source,
        keys_returned: first.value.nodes.length,
        glob_user12_ms: glob.ms,
        glob_user12_total: glob.value.total,
      },
      goals: {
        tree_5x_scan_wc_runs: runs.map((r) => r.vs_scan_wc >= 5),
        ping_p99_rise_under_2ms_runs: runs.map((r) => r.ping_p99_rise_ms <= 2),
        both_in_one_run: runs.some(met),
        exact_counts: exact,
        folder_first_100_under_300ms: first.ms < 300 && listed.ms < 300,
      },
    };
  } finally {
    close();
    await serve.stop();
  }
}
