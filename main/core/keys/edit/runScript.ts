import { createHash } from 'node:crypto';
import type { Cluster, Redis } from 'ioredis';
import type { ScriptArg } from './editPlan';

/** Where edits run: a pooled client (standalone, a sentinel set's master) or the Cluster client. */
export type EditClient = Redis | Cluster;

const shas = new Map<string, string>();

function sha1Of(script: string): string {
  let sha = shas.get(script);
  if (sha === undefined) {
    sha = createHash('sha1').update(script).digest('hex');
    shas.set(script, sha);
  }
  return sha;
}

/**
 * EVALSHA, and EVAL when the server has not cached the script yet (NOSCRIPT: first use, a
 * restart, SCRIPT FLUSH, a failover to a node that never ran it). The key is KEYS[1], so a
 * Cluster client sends both to the node serving its slot.
 */
export async function runScript(client: EditClient, script: string, keys: Buffer[], args: ScriptArg[]): Promise<unknown> {
  try {
    return await client.evalsha(sha1Of(script), keys.length, ...keys, ...args);
  } catch (e) {
    if (!(e instanceof Error) || !e.message.startsWith('NOSCRIPT')) throw e;
    return client.eval(script, keys.length, ...keys, ...args);
  }
}
