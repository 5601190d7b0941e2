import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnRedisServer } from '../main/core/redisProcess/spawnRedisServer';
import { argValue } from './measure';
import { keysTreeBench } from './keysTree';

/**
 * `npm run bench -- keys [--keys N]`: the Keys page's figures, each against its anchor in the
 * same run, on a private redis-server. `tree`: the namespace tree and folder listing (keysTree.ts).
 */
export async function keysBench(): Promise<Record<string, unknown>> {
  const n = argValue('keys', 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'cb-bench-keys-'));
  const server = await spawnRedisServer({ args: ['--save', '', '--appendonly', 'no'] });
  try {
    return { tree: await keysTreeBench(server, dir, n) };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
