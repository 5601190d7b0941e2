/**
 * `npm run screenshots`: README pictures, taken as a user sees the pages, each in the light
 * theme (docs/<name>.png) and the dark one (docs/<name>-dark.png).
 * A master with three replicas under a light redis-benchmark load and a small keyspace in
 * namespaces, `cacheboard serve` pointed at it, Debian's Chromium:
 * - overview: 1280×1350 (cards, topology and the charts) after 45 s of history;
 * - keys, keys-value: the Keys page with a folder's stats and a hash open;
 * - overview-alert: 1280×800, a replica killed (alerts, its card and its topology link).
 * Private servers on free ports only; nothing else is touched. The other pictures in docs/
 * come from the e2e specs that reach those states (trials, audience, key actions, cluster).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chromium, type Page } from '@playwright/test';
import { Redis } from 'ioredis';
import { startServe } from '../e2e/serveProcess';
import { KeysPage } from '../e2e/pages/KeysPage';
import { shootBothThemes } from '../e2e/pages/themeShots';
import { spawnRedisServer, type RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Users, their sessions and carts, a job queue and some settings: a tree worth a picture. */
async function seed(master: RedisProcess): Promise<void> {
  const r = new Redis({ host: master.host, port: master.port });
  const p = r.pipeline();
  for (let i = 0; i < 400; i++) {
    p.hset(`user:${i}:profile`, 'name', `user ${i}`, 'city', ['Oslo', 'Lyon', 'Porto', 'Graz'][i % 4] ?? '', 'plan', i % 7 === 0 ? 'pro' : 'free');
    p.set(`user:${i}:session`, `s-${i}`, 'EX', 3600 + i);
  }
  for (let i = 0; i < 150; i++) p.rpush(`cart:${i}`, 'sku:1', 'sku:2');
  for (let i = 0; i < 40; i++) p.zadd('leaderboard:weekly', i * 13, `user:${i}`);
  p.sadd('settings:flags', 'dark-mode', 'beta-search');
  await p.exec();
  r.disconnect();
}

function done(path: string): void {
  process.stdout.write(`${path} and its -dark twin\n`);
}

async function keysPictures(page: Page, profile: string): Promise<void> {
  const keys = new KeysPage(page);
  await keys.open('', profile);
  await keys.waitForCompleteTree();
  await keys.openFolder('user:');
  await keys.stats();
  await keys.openExact('user:1:profile');
  await keys.expectOpen('user:1:profile');
  await page.getByTestId('keys-value').getByText('Lyon').first().waitFor();
  await page.mouse.move(0, 0);
  await shootBothThemes(page, 'docs/keys.png', (path) => keys.screenshot(path));
  done('docs/keys.png');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shootBothThemes(page, 'docs/keys-value.png', (path) => page.screenshot({ path }));
  done('docs/keys-value.png');
}

async function main(): Promise<void> {
  const master = await spawnRedisServer({ args: ['--save', '', '--repl-diskless-sync-delay', '0'] });
  const replicas: RedisProcess[] = [];
  for (let i = 0; i < 3; i++) {
    replicas.push(await spawnRedisServer({ args: ['--save', '', '--replicaof', master.host, String(master.port)] }));
  }
  await seed(master);
  const serve = await startServe({ REDIS_URL: master.url });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  let load: ChildProcess | undefined;
  try {
    // About 15k SET/s: enough to move every chart, far from what the machine can do.
    load = spawn('redis-benchmark', ['-h', master.host, '-p', String(master.port), '-t', 'set', '-n', '100000000', '-r', '50000', '-c', '2', '-q'], {
      stdio: 'ignore',
    });
    // baseURL: the e2e page objects (KeysPage) open routes as the suite does.
    const page = await browser.newPage({ baseURL: serve.url, viewport: { width: 1280, height: 1350 } });
    await page.goto('/#/overview');
    await sleep(45_000);
    await shootBothThemes(page, 'docs/overview.png', (path) => page.screenshot({ path }));
    done('docs/overview.png');

    await keysPictures(page, `REDIS_URL (${master.host}:${master.port})`);

    // A replica dies: the alerts bar, its card and its topology link say so within a few polls.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/#/overview');
    await sleep(5_000);
    await replicas[1]?.stop();
    await page.getByText('active alert').first().waitFor({ timeout: 20_000 });
    await sleep(3_000);
    await shootBothThemes(page, 'docs/overview-alert.png', (path) => page.screenshot({ path }));
    done('docs/overview-alert.png');
  } finally {
    load?.kill('SIGKILL');
    await browser.close();
    await serve.stop();
    await Promise.all(replicas.map((r) => r.stop()));
    await master.stop();
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    process.stderr.write(`${String(e)}\n`);
    process.exit(1);
  },
);
