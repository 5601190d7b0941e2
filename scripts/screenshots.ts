/**
 * `npm run screenshots`: the README's pictures, taken as a user sees the pages.
 * A master with three replicas under a light redis-benchmark load, `cacheboard
 * serve` pointed at it, Debian's Chromium at 1280×1350 (cards, topology and the charts). Private servers on free
 * ports only; nothing else is touched.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chromium } from '@playwright/test';
import { startServe } from '../e2e/serveProcess';
import { spawnRedisServer, type RedisProcess } from '../main/core/redisProcess/spawnRedisServer';
import { CHROMIUM_ARGS, chromiumPath } from '../e2e/chromium';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const master = await spawnRedisServer({ args: ['--save', '', '--repl-diskless-sync-delay', '0'] });
  const replicas: RedisProcess[] = [];
  for (let i = 0; i < 3; i++) {
    replicas.push(await spawnRedisServer({ args: ['--save', '', '--replicaof', master.host, String(master.port)] }));
  }
  const serve = await startServe({ REDIS_URL: master.url });
  const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  let load: ChildProcess | undefined;
  try {
    // About 15k SET/s: enough to move every chart, far from what the machine can do.
    load = spawn('redis-benchmark', ['-h', master.host, '-p', String(master.port), '-t', 'set', '-n', '100000000', '-r', '50000', '-c', '2', '-q'], {
      stdio: 'ignore',
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 1350 } });
    await page.goto(`${serve.url}/#/overview`);
    await sleep(45_000);
    await page.screenshot({ path: 'docs/overview.png' });
    process.stdout.write('docs/overview.png\n');
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
