import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { Redis } from 'ioredis';
import { spawnRedisServer, type RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium';
import { FAST_SYNC_ARGS, replicaArgs, waitForReplication } from '../testing/replication';
import { argValue, procMemory, startServe } from './measure';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;
const r1 = (n: number) => Math.round(n * 10) / 10;
const opt = (n: number | undefined) => (n === undefined ? null : r1(n));

/** What Node and serve print when a promise rejection or an exception goes unhandled, or the process dies. */
const CRASH_TEXT = /unhandled|uncaught|triggerUncaughtException|FATAL ERROR|out of memory/i;

const rssOf = (pid: number): number => procMemory(pid, 'VmRSS');

function p99(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] as number;
}

/** The victim's `data-up` on the Overview page: its card, or null while the card is not drawn. */
async function shownUp(page: Page, address: string): Promise<boolean | null> {
  const up = await page
    .locator(`[data-testid="node-card"][data-address="${address}"]`)
    .first()
    .getAttribute('data-up', { timeout: 2000 })
    .catch(() => null);
  return up === null ? null : up === 'true';
}

interface Sample {
  t_s: number;
  phase: string;
  rss_mb: number;
  /** /api/health round trips in this interval, measured from the bench process. */
  health_rtt_ms: { max: number; p99: number; n: number };
}

/**
 * `npm run bench -- soak`: `cacheboard serve` against a master and two replicas, with the
 * Overview open in one Chromium tab and the Monitor (started on the master) in another,
 * while a light writer INCRs on the master. After `--warmup-seconds` one replica is killed
 * (SIGKILL) for `--kill-minutes`, restarted on the same port with the same replicaof, and
 * watched `--after-seconds` more. Every `--interval-seconds`: serve's RSS and its event
 * loop's longest delay (from inside it: a preloaded monitorEventLoopDelay, bench/loopDelayProbe.mjs;
 * and from outside: /api/health round trips). The Overview's node card is read every second
 * for when the page showed the replica down and up again. All of serve's stderr is scanned
 * for unhandled rejections and crashes. There is no external anchor: the goal is RSS flat
 * within 20 MB after warm-up and no unhandled rejection.
 */
export async function soakBench(): Promise<Record<string, unknown>> {
  const killMinutes = argValue('kill-minutes', 10);
  const warmupSeconds = argValue('warmup-seconds', 60);
  const afterSeconds = argValue('after-seconds', 120);
  const intervalSeconds = argValue('interval-seconds', 30);

  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-soak-'));
  const loopFile = join(dir, 'loop.jsonl');
  const probe = new URL('./loopDelayProbe.mjs', import.meta.url).href;
  const nodes: RedisProcess[] = [];
  let stderr = '';
  let stderrBytes = 0;
  let browser: Browser | undefined;
  let writer: Redis | undefined;
  let serve: Awaited<ReturnType<typeof startServe>> | undefined;
  const timers: NodeJS.Timeout[] = [];
  try {
    const master = await spawnRedisServer({ args: [...FAST_SYNC_ARGS] });
    nodes.push(master);
    for (let i = 0; i < 2; i++) nodes.push(await spawnRedisServer({ args: replicaArgs(master) }));
    const [, alive, victim] = nodes as [RedisProcess, RedisProcess, RedisProcess];
    await waitForReplication(master, [alive, victim]);
    writer = new Redis({ host: master.host, port: master.port });
    const w = writer;
    timers.push(setInterval(() => void w.incr('soak:counter').catch(() => undefined), 100));

    serve = await startServe(master.url, {
      env: { NODE_OPTIONS: `--import ${probe}`, CB_SOAK_LOOP_FILE: loopFile, CB_SOAK_LOOP_MS: String(intervalSeconds * 1000) },
      onOutput: (text, stream) => {
        if (stream !== 'stderr') return;
        stderrBytes += text.length;
        // Kept whole up to 8 MB: a soak's stderr is normally near empty.
        if (stderr.length < 8 << 20) stderr += text;
      },
    });
    const servePid = serve.pid;
    const base = serve.base;

    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    // Two contexts, not two tabs of one: a background tab's timers are throttled, and both pages are meant to be live.
    const overview = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await overview.goto(`${base}/#/overview`);
    const victimAt = `${victim.host}:${victim.port}`;
    await overview.locator(`[data-testid="node-card"][data-address="${victimAt}"][data-up="true"]`).waitFor({ timeout: 30_000 });
    const monitor = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await monitor.goto(`${base}/#/monitor`);
    await monitor.getByTestId('monitor-nodes').waitFor();
    await monitor.getByTestId('monitor-start').click();
    await monitor.locator('[data-testid="monitor-pane"][data-status="live"]').waitFor();

    const t0 = Date.now();
    const at = () => (Date.now() - t0) / 1000;
    let phase = 'warmup';
    let rtts: number[] = [];
    let healthFailures = 0;
    timers.push(
      setInterval(() => {
        const s = performance.now();
        void fetch(`${base}/api/health`)
          .then(async (r) => {
            await r.text();
            if (r.ok) rtts.push(performance.now() - s);
            else healthFailures++;
          })
          .catch(() => healthFailures++);
      }, 250),
    );
    const samples: Sample[] = [];
    const sample = () => {
      samples.push({
        t_s: r1(at()),
        phase,
        rss_mb: mb(rssOf(servePid)),
        health_rtt_ms: { max: r1(Math.max(0, ...rtts)), p99: r1(p99(rtts)), n: rtts.length },
      });
      rtts = [];
    };
    timers.push(setInterval(sample, intervalSeconds * 1000));

    // The page's view of the victim, read every second; the first change after each event is what counts.
    const seen: { killedAt?: number; restartedAt?: number; downAt?: number; upAt?: number } = {};
    let watching = true;
    const watch = (async () => {
      while (watching) {
        const up = await shownUp(overview, victimAt);
        if (seen.killedAt !== undefined && seen.downAt === undefined && up === false) seen.downAt = at();
        if (seen.restartedAt !== undefined && seen.downAt !== undefined && seen.upAt === undefined && up === true) seen.upAt = at();
        await sleep(1000);
      }
    })();

    await sleep(warmupSeconds * 1000);
    const rssAfterWarmup = rssOf(servePid);
    phase = 'replica down';
    victim.kill('SIGKILL');
    seen.killedAt = at();
    await victim.stop();
    await sleep(killMinutes * 60_000);
    phase = 'after restart';
    const restarted = await spawnRedisServer({ port: victim.port, args: replicaArgs(master) });
    nodes.push(restarted);
    seen.restartedAt = at();
    await waitForReplication(master, [alive, restarted], { timeoutMs: 30_000 });
    await sleep(afterSeconds * 1000);
    // The run's last figures, unless the interval timer has just taken them.
    if (samples.length === 0 || at() - (samples.at(-1) as Sample).t_s > 1) sample();
    const rssEnd = rssOf(servePid);
    watching = false;
    await watch;
    for (const t of timers) clearInterval(t);
    const serveAlive = existsSync(`/proc/${servePid}`) && rssEnd > 0;

    const loop = existsSync(loopFile)
      ? readFileSync(loopFile, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { at: number; max_ms: number; p99_ms: number })
          .map((l) => ({ t_s: r1((l.at - t0) / 1000), max_ms: l.max_ms, p99_ms: l.p99_ms }))
      : [];
    const afterWarmup = samples.filter((s) => s.t_s > warmupSeconds);
    const unhandled = stderr.match(new RegExp(CRASH_TEXT.source, 'gi')) ?? [];
    return {
      settings: { kill_minutes: killMinutes, warmup_seconds: warmupSeconds, after_seconds: afterSeconds, interval_seconds: intervalSeconds },
      anchor: { name: 'none (no external anchor)', goal: 'goal: RSS flat within 20 MB after warm-up; no unhandled rejection' },
      rss_mb: samples.map((s) => ({ t_s: s.t_s, phase: s.phase, mb: s.rss_mb })),
      rss_after_warmup_mb: mb(rssAfterWarmup),
      rss_end_mb: mb(rssEnd),
      rss_delta_after_warmup_mb: mb(rssEnd - rssAfterWarmup),
      rss_max_after_warmup_mb: Math.max(mb(rssAfterWarmup), ...afterWarmup.map((s) => s.rss_mb)),
      event_loop_delay_ms: {
        longest: Math.max(0, ...loop.map((l) => l.max_ms)),
        longest_after_warmup: Math.max(0, ...loop.filter((l) => l.t_s > warmupSeconds).map((l) => l.max_ms)),
        series: loop,
      },
      health_rtt_ms: {
        longest: Math.max(0, ...samples.map((s) => s.health_rtt_ms.max)),
        worst_interval_p99: Math.max(0, ...samples.map((s) => s.health_rtt_ms.p99)),
        failures: healthFailures,
        series: samples.map((s) => ({ t_s: s.t_s, ...s.health_rtt_ms })),
      },
      killed_at_s: opt(seen.killedAt),
      restarted_at_s: opt(seen.restartedAt),
      down_seen_at_s: opt(seen.downAt),
      up_seen_at_s: opt(seen.upAt),
      down_seen_after_kill_s: seen.downAt === undefined || seen.killedAt === undefined ? null : r1(seen.downAt - seen.killedAt),
      up_seen_after_restart_s: seen.upAt === undefined || seen.restartedAt === undefined ? null : r1(seen.upAt - seen.restartedAt),
      unhandled_count: unhandled.length,
      unhandled_lines: [...new Set(stderr.split('\n').filter((l) => CRASH_TEXT.test(l)))].slice(0, 10),
      serve_stderr_bytes: stderrBytes,
      serve_alive_at_end: serveAlive,
      note:
        'RSS is VmRSS of the serve process. event_loop_delay_ms is measured inside serve by a preloaded ' +
        'perf_hooks.monitorEventLoopDelay (10 ms resolution, per interval window; bench/loopDelayProbe.mjs, nothing added to the product). ' +
        'health_rtt_ms is GET /api/health every 250 ms from the bench process, which also drives Chromium: an outside view, noisier. ' +
        'Load: INCR every 100 ms on the master; the Monitor page streams the master. down/up times are when the Overview node card’s data-up changed (polled every 1 s).',
    };
  } finally {
    for (const t of timers) clearInterval(t);
    await browser?.close();
    await serve?.stop();
    writer?.disconnect();
    for (const n of nodes.reverse()) await n.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
