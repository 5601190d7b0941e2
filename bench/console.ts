import { chromium, type Browser } from '@playwright/test';
import { Redis } from 'ioredis';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium';
import { consoleRoundTrip } from './consoleRoundTrip';
import { argValue, loadAverage, startServe, wsRpc } from './measure';

const GET_KEY = 'bench:console:get';
const BIG_LIST = 'bench:console:list';

/** A list of `n` short elements, pushed in pipelined batches. */
async function buildList(admin: Redis, n: number): Promise<void> {
  const batch = 10_000;
  for (let i = 0; i < n; i += batch * 10) {
    const p = admin.pipeline();
    for (let j = i; j < Math.min(n, i + batch * 10); j += batch) {
      p.rpush(BIG_LIST, ...Array.from({ length: Math.min(batch, n - j) }, (_, k) => `element:${j + k}`));
    }
    await p.exec();
  }
}

/**
 * `LRANGE list 0 -1` of a `n`-element list typed into the Console page in Chromium: from the
 * Enter to the cut reply on screen, with the longest main-thread task from the Enter on.
 * Anchor: `redis-cli LRANGE` of the same list to /dev/null, process start to exit.
 */
async function pageFigure(browser: Browser, base: string, n: number): Promise<Record<string, unknown>> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(`${base}/#/console`);
    const input = page.getByTestId('console-input');
    await input.waitFor();
    // Warm: the catalog and the connection are made by the first command, not measured.
    await input.fill('PING');
    await input.press('Enter');
    await page.getByTestId('console-entry').first().and(page.locator(':not([data-status="running"])')).waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { __longest: number };
      w.__longest = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__longest = Math.max(w.__longest, e.duration);
      }).observe({ type: 'longtask' });
    });
    await input.fill(`LRANGE ${BIG_LIST} 0 -1`);
    const t0 = Date.now();
    await input.press('Enter');
    await page.getByTestId('console-cut').first().waitFor({ timeout: 120_000 });
    await page.getByTestId('console-reply-tree').first().getByRole('listitem').first().waitFor();
    const ms = Date.now() - t0;
    // Let a late task (layout of the virtual list) land before it is read.
    await page.waitForTimeout(500);
    const longest = await page.evaluate(() => (window as unknown as { __longest: number }).__longest);
    const note = await page.getByTestId('console-cut').first().locator('span').first().innerText();
    return {
      elements: n,
      enter_to_cut_reply_ms: ms,
      longest_main_thread_task_ms: Math.round(longest),
      longest_task_note: 'Chromium reports tasks of 50 ms or more: 0 means none that long',
      longest_task_goal: 'under 100 ms',
      goal_met: longest < 100,
      cut_note: note.replace(/\s+/g, ' ').trim(),
    };
  } finally {
    await page.close();
  }
}

async function redisCliAnchor(host: string, port: number): Promise<number> {
  const { spawn } = await import('node:child_process');
  const t0 = performance.now();
  await new Promise<void>((resolve, reject) => {
    const c = spawn('redis-cli', ['-h', host, '-p', String(port), 'LRANGE', BIG_LIST, '0', '-1'], { stdio: ['ignore', 'ignore', 'inherit'] });
    c.on('error', reject);
    c.on('exit', () => resolve());
  });
  return Math.round(performance.now() - t0);
}

/**
 * The Console's two figures (issue 22): a GET's round trip through the web API (`--runs`,
 * default 300; anchor: the same GET on ioredis), and a `--elements` (default 1,000,000)
 * element reply in Chromium, cut at the display bound, with the page's longest main-thread task.
 */
export async function consoleBench(): Promise<Record<string, unknown>> {
  const runs = argValue('runs', 300);
  const elements = argValue('elements', 1_000_000);
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  const admin = new Redis({ host: server.host, port: server.port, lazyConnect: true });
  await admin.connect();
  const serve = await startServe(server.url);
  let browser: Browser | undefined;
  let client: Awaited<ReturnType<typeof wsRpc>> | undefined;
  try {
    await admin.set(GET_KEY, 'a small cached value');
    await buildList(admin, elements);
    client = await wsRpc(serve.base);
    const get = await consoleRoundTrip(client.rpc, admin, GET_KEY, runs);
    browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
    const big = await pageFigure(browser, serve.base, elements);
    const anchorMs = await redisCliAnchor(server.host, server.port);
    return {
      load_average: loadAverage(),
      get_round_trip: get,
      big_reply: { ...big, anchor: { name: `redis-cli LRANGE of the same list to /dev/null`, ms: anchorMs } },
    };
  } finally {
    client?.close();
    await browser?.close();
    await serve.stop();
    admin.disconnect();
    await server.stop();
  }
}
