import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RpcClient } from '../app/rpcClient';
import type { StreamEvent } from '../app/contract';
import type { RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { loadAverage, runChild, startServe, wsRpc } from './measure';
import { expectedTop, writeKeysData } from './keysData';
import { idlePing, pingProbe, watchServer } from './pingProbe';

const r2 = (n: number) => Math.round(n * 100) / 100;

/** Resident set size of a process, bytes (/proc). */
function rss(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(m?.[1] ?? 0) * 1024;
}

function waitDone(rpc: RpcClient, jobId: string): Promise<StreamEvent<'keys.index.progress'>> {
  return new Promise((resolve, reject) => {
    let last: StreamEvent<'keys.index.progress'> | undefined;
    rpc.subscribe('keys.index.progress', { jobId }, {
      onEvents: (batch) => (last = batch.at(-1) ?? last),
      onEnd: (error) => (error !== undefined || last === undefined ? reject(error ?? new Error('no event')) : resolve(last)),
    });
  });
}

async function timed<T>(f: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = process.hrtime.bigint();
  const value = await f();
  return { ms: r2(Number(process.hrtime.bigint() - t0) / 1e6), value };
}

/**
 * The tree part of `npm run bench -- keys`: N keys (default 1M; `--keys 10000000`) loaded
 * with `redis-cli --pipe` into `server`; the anchor `redis-cli --scan | wc -l` timed in the
 * same run; then the index built through the web API (`cacheboard serve`, keys.index.start,
 * its progress stream to the end), its counts checked against the generator, the serve
 * process' RSS growth, PING's p99 idle and during the build, and the first 100 keys of the
 * `rare:` folder (0.01% of the keys) by keys.tree and keys.list through the same WebSocket.
 */
export async function keysTreeBench(server: RedisProcess, dir: string, n: number): Promise<Record<string, unknown>> {
  const file = join(dir, 'keys.resp');
  await writeKeysData(file, n);
  const cli = ['-h', server.host, '-p', String(server.port)];
  const load = await runChild('redis-cli', [...cli, '--pipe'], { stdinFile: file });
  if (load.code !== 0) throw new Error(`redis-cli --pipe failed: ${load.stderr}${load.stdout}`);
  const anchor = await runChild('sh', ['-c', `redis-cli ${cli.join(' ')} --scan | wc -l`]);
  const anchorCount = Number(anchor.stdout.trim());

  const serve = await startServe(`redis://${server.host}:${server.port}/0`);
  const { rpc, close } = await wsRpc(serve.base);
  try {
    await rpc.invoke('keys.tree', { profileId: 'env', prefix: '' }); // connections up, modules loaded
    const rssBefore = rss(serve.pid);
    const idle = await idlePing(server);
    const view = await watchServer(server);
    const during = pingProbe(server);
    const t0 = process.hrtime.bigint();
    const { jobId } = await rpc.invoke('keys.index.start', { profileId: 'env' });
    const end = await waitDone(rpc, jobId);
    const treeSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    const buildPing = await during.stop();
    const rssAfter = rss(serve.pid);
    const seen = await view.stop();
    if (end.kind !== 'done') throw new Error(`index build ended ${end.kind}`);

    const root = await timed(() => rpc.invoke('keys.tree', { profileId: 'env', prefix: '', limit: 5000 }));
    const want = expectedTop(n);
    const got = new Map(root.value.nodes.map((x) => [Buffer.from(x.ref.b64, 'base64').toString(), x.count]));
    const exact = end.state.scanned === n && [...want].every(([k, c]) => got.get(k) === c);
    const rare = Buffer.from('rare:').toString('base64');
    const first = await timed(() => rpc.invoke('keys.tree', { profileId: 'env', prefix: rare, limit: 100 }));
    const firstAgain = await timed(() => rpc.invoke('keys.tree', { profileId: 'env', prefix: rare, limit: 100 }));
    const listed = await timed(() => rpc.invoke('keys.list', { profileId: 'env', match: Buffer.from('rare:*').toString('base64'), limit: 100 }));
    const glob = await timed(() => rpc.invoke('keys.list', { profileId: 'env', match: Buffer.from('user:12:*').toString('base64'), limit: 100 }));
    return {
      keys: n,
      anchor: { scan_wc_seconds: r2(anchor.seconds), scan_wc_count: anchorCount },
      tree: {
        how: 'web API: cacheboard serve, keys.index.start and its progress stream to the end',
        seconds: r2(treeSeconds),
        engine_seconds: r2(end.state.seconds),
        vs_scan_wc: r2(anchor.seconds / treeSeconds),
        scanned: end.state.scanned,
        exact_counts: exact,
        names: end.state.names,
        index_bytes: end.state.bytes,
        serve_rss_growth_mb: r2((rssAfter - rssBefore) / 2 ** 20),
        ping_ms_idle: idle,
        ping_ms_during: buildPing,
        ping_p99_rise_ms: r2(buildPing.p99 - idle.p99),
        server_scan_usec_per_call: seen.usecPerCall['scan'] ?? NaN,
        server_slowest_command_ms: seen.slowestCommandMs,
        load_average: loadAverage(),
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
        tree_5x_scan_wc: anchor.seconds / treeSeconds >= 5,
        exact_counts: exact,
        ping_p99_rise_under_2ms: buildPing.p99 - idle.p99 <= 2,
        folder_first_100_under_300ms: first.ms < 300 && listed.ms < 300,
      },
    };
  } finally {
    close();
    await serve.stop();
  }
}
