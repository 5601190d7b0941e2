import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { argValue, loadAverage } from './measure';
import { keysTreeBench, seedKeys } from './keysTree';
import { keysTreeCliBench } from './keysTreeCli';
import { keysValuesBench } from './keysValues';

/**
 * `npm run bench -- keys [--keys N] [--tree-runs R] [--cli-runs C] [--skip-web-tree] [--skip-values]`: the
 * Keys page's figures, each against its anchor in the same run, on private redis-servers. `tree`: the
 * namespace tree and folder listing through the web API (keysTree.ts); `tree_cli`: `cacheboard keys tree`
 * from process start to exit against the server's own time for it (keysTreeCli.ts); `values`: first views
 * of huge values through the web API (keysValues.ts).
 */
export async function keysBench(): Promise<Record<string, unknown>> {
  const tree = await keysTreeOnly();
  return process.argv.includes('--skip-values') ? tree : { ...tree, values: await keysValuesBench() };
}

async function keysTreeOnly(): Promise<Record<string, unknown>> {
  const n = argValue('keys', 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-keys-'));
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  try {
    await seedKeys(server, dir, n);
    const tree = process.argv.includes('--skip-web-tree') ? undefined : await keysTreeBench(server, n);
    const tree_cli = await keysTreeCliBench(server, n, argValue('cli-runs', 3));
    return { keys: n, load_average: loadAverage(), ...(tree === undefined ? {} : { tree }), tree_cli };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
