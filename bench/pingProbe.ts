import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';

const r2 = (n: number) => Math.round(n * 100) / 100;

export interface PingFigures {
  count: number;
  p50: number;
  p99: number;
}

/** One probe sample: [wall-clock ms when sent, round trip ms]. */
export type PingSample = [number, number];

/**
 * The independent PING probe: its own process (pingProbe.mjs, raw socket, one PING every ~1 ms),
 * so the process under test and the bench's own work do not delay its readings, until stop(),
 * which gives every sample so windows can be cut by wall-clock time.
 */
export async function startPingProbe(server: { host: string; port: number }): Promise<{ stop(): Promise<PingSample[]> }> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./pingProbe.mjs', import.meta.url)), server.host, String(server.port), '1'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((r) => child.once('exit', r));
  const ready = await Promise.race([
    new Promise<boolean>((r) => child.stdout.on('data', () => out.startsWith('ready\n') && r(true))),
    exited.then(() => false),
  ]);
  if (!ready) throw new Error('the PING probe did not start');
  return {
    async stop() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`the PING probe exited ${String(code)}`);
      return JSON.parse(out.slice('ready\n'.length)) as PingSample[];
    },
  };
}

/** p50 and p99 of the samples taken in [from, to) (wall-clock ms; all of them by default). */
export function windowStats(samples: PingSample[], from = -Infinity, to = Infinity): PingFigures {
  const rtts = samples.filter(([t]) => t >= from && t < to).map(([, ms]) => ms);
  rtts.sort((a, b) => a - b);
  const q = (p: number) => r2(rtts[Math.min(rtts.length - 1, Math.floor(p * rtts.length))] ?? 0);
  return { count: rtts.length, p50: q(0.5), p99: q(0.99) };
}

/** The independent probe from now until stop(), which gives its p50/p99 in ms. */
export async function pingProbe(server: { host: string; port: number }): Promise<{ stop(): Promise<PingFigures> }> {
  const probe = await startPingProbe(server);
  return { stop: async () => windowStats(await probe.stop()) };
}

/** The probe over `ms` of the server left alone: the idle figures a run is compared with. */
export async function idlePing(server: { host: string; port: number }, ms = 3000): Promise<PingFigures> {
  const probe = await pingProbe(server);
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
