import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Locator } from '@playwright/test';
import { Redis } from 'ioredis';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium';
import { argValue, startServe } from './measure';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The node and its load run at a lower CPU priority than Cacheboard and the
 * browser: on a small machine they would otherwise starve the viewer of CPU,
 * which measures the machine, not the page (in production they do not share cores).
 */
const NICE = 10;

function benchmarkArgs(server: { host: string; port: number }, n: number): string[] {
  return ['-h', server.host, '-p', String(server.port), '-P', '16', '-t', 'set', '-n', String(n), '-r', '100000', '-q'];
}
const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

function rssOf(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : 0;
}

/** Sum of `calls=` over INFO commandstats: every command the server ran, MONITOR or not. */
async function commandCalls(redis: Redis): Promise<{ total: number; set: number }> {
  const info = await redis.info('commandstats');
  let total = 0;
  let set = 0;
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    total += Number(m[2]);
    if (m[1] === 'set') set = Number(m[2]);
  }
  return { total, set };
}

/** The MONITOR clients' (flags contain O) largest omem in one CLIENT LIST. */
function monitorOmem(list: string): number {
  let max = 0;
  for (const line of list.split('\n')) {
    const flags = /\bflags=(\S+)/.exec(line)?.[1] ?? '';
    if (!flags.includes('O')) continue;
    max = Math.max(max, Number(/\bomem=(\d+)/.exec(line)?.[1] ?? 0));
  }
  return max;
}

interface Figures {
  matched: number;
  delivered: number;
  dropped: number;
  received: number;
  setLines: number;
}

/** The pane's counters as the page shows them (data-value holds the exact numbers). */
async function readCounters(pane: Locator): Promise<Figures> {
  const value = async (name: string) => Number(await pane.getByTestId(`monitor-${name}`).getAttribute('data-value'));
  const setCell = pane.getByTestId('monitor-top-commands').locator('tr[data-name="SET"] td.num').first();
  const setText = (await setCell.count()) > 0 ? await setCell.textContent() : '0';
  return {
    matched: await value('matched'),
    delivered: await value('delivered'),
    dropped: await value('dropped'),
    received: await value('received'),
    setLines: Number((setText ?? '0').replace(/,/g, '')),
  };
}

/**
 * The Monitor page in Chromium against `cacheboard serve`, watching a node that
 * redis-benchmark drives as hard as it can (pipelined SETs) for `--seconds`.
 * With "hide own traffic" off and no filter every line the node sends is
 * matched, so the page's delivered + dropped must equal the node's count
 * exactly. The anchor is redis-benchmark's own rate on the same server without
 * MONITOR, measured first in the same run.
 */
export async function monitorBench(): Promise<Record<string, unknown>> {
  const seconds = argValue('seconds', 60);
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  spawn('renice', ['-n', String(NICE), '-p', String(server.pid)], { stdio: 'ignore' });
  const admin = new Redis({ host: server.host, port: server.port, lazyConnect: true });
  await admin.connect();
  const serve = await startServe(server.url);
  const base = serve.base;
  let browser: Browser | undefined;
  let load: ChildProcess | undefined;
  try {
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    const servePid = serve.pid;

    // Anchor: the same load with no MONITOR client.
    const anchorRun = await new Promise<string>((resolve, reject) => {
      const b = spawn('nice', ['-n', String(NICE), 'redis-benchmark', ...benchmarkArgs(server, 2_000_000)], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      b.stdout.on('data', (d: Buffer) => (out += d.toString()));
      b.on('error', reject);
      b.on('close', () => resolve(out));
    });
    const anchorRate = Number(/SET: ([\d.]+) requests per second/.exec(anchorRun.replace(/\r/g, '\n'))?.[1] ?? NaN);
    await admin.flushall();

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/#/monitor`);
    await page.getByTestId('monitor-nodes').waitFor();
    await page.getByTestId('monitor-filter-hideOwn').setChecked(false);
    await page.getByTestId('monitor-start').click();
    const pane = page.getByTestId('monitor-pane').first();
    await page.locator('[data-testid="monitor-pane"][data-status="live"]').waitFor();
    // Long tasks from the start of the load on (page load is not what is measured).
    const tasks = await page.evaluateHandle(() => {
      const seen: { at: number; ms: number }[] = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) seen.push({ at: e.startTime, ms: e.duration });
      }).observe({ type: 'longtask' });
      return seen;
    });
    const loadStartedAt = await page.evaluate(() => performance.now());

    const calls0 = await commandCalls(admin);
    const rss0 = rssOf(servePid);
    let rssPeak = rss0;
    let omemMax = 0;
    let omemSamples = 0;
    const poll = setInterval(() => {
      rssPeak = Math.max(rssPeak, rssOf(servePid));
      void admin.client('LIST').then((l) => {
        omemMax = Math.max(omemMax, monitorOmem(String(l)));
        omemSamples++;
      });
    }, 500);

    const t0 = Date.now();
    load = spawn('nice', ['-n', String(NICE), 'redis-benchmark', ...benchmarkArgs(server, 2_000_000_000)], { stdio: 'ignore' });
    await sleep(seconds * 1000);
    load.kill('SIGKILL');
    const loadSeconds = (Date.now() - t0) / 1000;
    clearInterval(poll);
    const calls1 = await commandCalls(admin);
    const rss1 = rssOf(servePid);

    // The last batch and the next stats event settle within a couple of seconds.
    let f = await readCounters(pane);
    for (let i = 0; i < 40; i++) {
      await sleep(250);
      f = await readCounters(pane);
      if (f.matched === f.delivered + f.dropped && f.received === f.matched && f.setLines === calls1.set - calls0.set) break;
    }
    const longTasks = await tasks.jsonValue();
    const longest = (from: number) => Math.round(Math.max(0, ...longTasks.filter((t) => t.at >= from).map((t) => t.ms)));
    const screenshot = join(tmpdir(), `cb-bench-monitor-${Date.now()}.png`);
    await page.screenshot({ path: screenshot, fullPage: true });

    return {
      seconds: Math.round(loadSeconds * 10) / 10,
      anchor: { name: 'redis-benchmark -P 16 -t set, no MONITOR', ops_per_sec: Math.round(anchorRate) },
      note: `redis-server and redis-benchmark ran at nice ${NICE}, below Cacheboard and Chromium`,
      node_ops_per_sec_with_monitor: Math.round((calls1.set - calls0.set) / loadSeconds),
      lines_sent_by_node: f.received,
      info_commandstats: { set_calls: calls1.set - calls0.set, all_calls: calls1.total - calls0.total },
      set_lines_counted_by_monitor: f.setLines,
      matched: f.matched,
      delivered: f.delivered,
      dropped: f.dropped,
      delivered_plus_dropped_equals_matched: f.delivered + f.dropped === f.matched,
      delivered_plus_dropped_equals_sent: f.delivered + f.dropped === f.received,
      delivered_lines_per_sec: Math.round(f.delivered / loadSeconds),
      dropped_percent: f.matched > 0 ? Math.round((f.dropped / f.matched) * 1000) / 10 : 0,
      viewer_longest_task_ms: longest(loadStartedAt),
      viewer_longest_task_after_first_5s_ms: longest(loadStartedAt + 5000),
      viewer_long_tasks: { count: longTasks.length, total_ms: Math.round(longTasks.reduce((a, t) => a + t.ms, 0)) },
      serve_rss_mb: { start: mb(rss0), end: mb(rss1), peak: mb(rssPeak), growth: mb(rss1 - rss0) },
      monitor_omem_max_bytes: omemMax,
      omem_samples: omemSamples,
      screenshot,
    };
  } finally {
    load?.kill('SIGKILL');
    await browser?.close();
    await serve.stop();
    admin.disconnect();
    await server.stop();
  }
}
