import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { argValue } from './measure';
import { keysTreeBench } from './keysTree';
import { keysValuesBench } from './keysValues';

/**
 * `npm run bench -- keys [--keys N] [--tree-runs R] [--skip-values]`: the Keys page's figures, each against its
 * anchor in the same run, on private redis-servers. `tree`: the namespace tree and folder listing
 * (keysTree.ts); `values`: first views of huge values through the web API (keysValues.ts).
 */
export async function keysBench(): Promise<Record<string, unknown>> {
  const tree = await keysTreeOnly();
  return process.argv.includes('--skip-values') ? { tree } : { tree, values: await keysValuesBench() };
}

async function keysTreeOnly(): Promise<unknown> {
  const n = argValue('keys', 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-keys-'));
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  try {
    return await keysTreeBench(server, dir, n);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
