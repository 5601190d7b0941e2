import { Redis } from 'ioredis';

const r2 = (n: number) => Math.round(n * 100) / 100;

export interface PingFigures {
  count: number;
  p50: number;
  p99: number;
}

/**
 * PING round trips, one at a time every ~1 ms, on a connection of the bench's own (not the
 * process under test's), until stop() resolves with their p50/p99 in ms.
 */
export function pingProbe(server: { host: string; port: number }): { stop(): Promise<PingFigures> } {
  const r = new Redis({ host: server.host, port: server.port });
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = process.hrtime.bigint();
      await r.ping();
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
      await new Promise((res) => setTimeout(res, 1));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      r.disconnect();
      times.sort((a, b) => a - b);
      const q = (p: number) => r2(times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0);
      return { count: times.length, p50: q(0.5), p99: q(0.99) };
    },
  };
}

/** The probe over `ms` of the server left alone: the idle figures a run is compared with. */
export async function idlePing(server: { host: string; port: number }, ms = 3000): Promise<PingFigures> {
  const probe = pingProbe(server);
  await new Promise((r) => setTimeout(r, ms));
  return probe.stop();
}

export interface ServerView {
  /** Mean µs per call of each command the server ran since the watch began (INFO commandstats). */
  usecPerCall: Record<string, number>;
  /** The slowest command over 1 ms the server saw (LATENCY LATEST), in ms; 0 if none. */
  slowestCommandMs: number;
}

/**
 * The server's own view of a run, free of this box's CPU contention, so a PING rise can be told
 * from scheduling noise: stats and the latency monitor (threshold 1 ms) are reset now, read at stop().
 */
export async function watchServer(server: { host: string; port: number }): Promise<{ stop(): Promise<ServerView> }> {
  const admin = new Redis({ host: server.host, port: server.port });
  await admin.config('SET', 'latency-monitor-threshold', '1');
  await admin.call('LATENCY', 'RESET');
  await admin.config('RESETSTAT');
  return {
    async stop() {
      try {
        const stats = String(await admin.info('commandstats'));
        const usecPerCall: Record<string, number> = {};
        for (const m of stats.matchAll(/cmdstat_([^:]+):calls=\d+,usec=\d+,usec_per_call=([\d.]+)/g)) usecPerCall[m[1] as string] = Number(m[2]);
        const latest = (await admin.call('LATENCY', 'LATEST')) as [string, number, number, number][];
        return { usecPerCall, slowestCommandMs: latest.find((e) => e[0] === 'command')?.[3] ?? 0 };
      } finally {
        admin.disconnect();
      }
    },
  };
}
