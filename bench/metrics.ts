import { Redis } from 'ioredis';
import { MetricsHub } from '../main/core/metrics/metricsHub';
import { Pool } from '../main/core/pool/pool';
import { spawnRedisServer, type RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { argValue } from './measure';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (n: number) => Math.round(n / 1e5) / 10;

/** Percent of one core this process used over `ms`, doing whatever it is doing meanwhile. */
async function cpuPercentOver(ms: number): Promise<number> {
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await sleep(ms);
  const c = process.cpuUsage(c0);
  const wallUs = Number(process.hrtime.bigint() - t0) / 1e3;
  return Math.round(((c.user + c.system) / wallUs) * 1000) / 10;
}

/**
 * Polls 1 master + 9 replicas at 1 s through the real MetricsHub. The anchor
 * is this same process idle (no watcher) over a short window in the same run.
 */
export async function metricsBench(): Promise<Record<string, unknown>> {
  const seconds = argValue('seconds', 120);
  const nodes: RedisProcess[] = [];
  const master = await spawnRedisServer({ args: ['--save', ''] });
  nodes.push(master);
  for (let i = 0; i < 9; i++) {
    nodes.push(await spawnRedisServer({ args: ['--save', '', '--replicaof', master.host, String(master.port)] }));
  }
  const writer = new Redis({ host: master.host, port: master.port });
  const pool = new Pool({
    resolve: (id) =>
      id === 'bench'
        ? {
            id,
            source: 'config',
            spec: { name: 'bench', host: master.host, port: master.port, db: 0, tls: { enabled: false, rejectUnauthorized: true } },
          }
        : undefined,
  });
  const hub = new MetricsHub({ pool });
  try {
    const idle = await cpuPercentOver(5000);
    let ticks = 0;
    let maxNodes = 0;
    const writes = setInterval(() => void writer.incr('bench:counter'), 50);
    const stop = hub.watch('bench', { intervalMs: 1000, lagBytesThreshold: 1 << 20, lagSecondsThreshold: 10 }, (e) => {
      if (e.kind === 'samples') {
        ticks += 1;
        maxNodes = Math.max(maxNodes, e.samples.length);
      }
    });
    const firstMinute = Math.min(60, seconds / 2);
    const cpuWarm = await cpuPercentOver(firstMinute * 1000);
    global.gc?.();
    const memAtMinute = process.memoryUsage();
    const cpuSteady = await cpuPercentOver((seconds - firstMinute) * 1000);
    global.gc?.();
    const memEnd = process.memoryUsage();
    stop();
    clearInterval(writes);
    return {
      nodes_polled: maxNodes,
      interval_ms: 1000,
      seconds,
      ticks,
      anchor: { name: 'same process idle, no watcher', cpu_percent_of_one_core: idle },
      cpu_percent_of_one_core: { first_minute: cpuWarm, after_first_minute: cpuSteady },
      growth_after_first_minute_mb: {
        rss: mb(memEnd.rss - memAtMinute.rss),
        heap_used: mb(memEnd.heapUsed - memAtMinute.heapUsed),
      },
      rss_mb: mb(memEnd.rss),
      note: global.gc ? 'heap measured after gc()' : 'run with node --expose-gc for post-GC heap figures',
    };
  } finally {
    await hub.shutdown();
    await pool.shutdown();
    writer.disconnect();
    for (const n of nodes.reverse()) await n.stop();
  }
}
