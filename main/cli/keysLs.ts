import type { ListedKey } from '../../app/schemas/keys';
import { keysReader } from '../core/keys/index/indexTargets';
import { listKeys } from '../core/keys/index/listKeys';
import { withCliPool } from './cliPool';
import { parseKeysLsArgs } from './keysArgs';
import { specFromFlags } from './topologyFlags';

/** `cacheboard keys ls`: paced SCAN MATCH (COUNT 1000, one call in flight a master) until --limit keys; TYPE and PTTL of each. */
export async function keysLs(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const args = parseKeysLsArgs(argv, env);
  const spec = specFromFlags(args);
  const { keys, complete } = await withCliPool(spec, async (pool, id) => {
    const reader = keysReader(pool, id, spec, spec.db);
    const found: ListedKey[] = [];
    let cursor: string | undefined;
    let more = true;
    while (more && found.length < args.limit) {
      const page = await listKeys(
        null,
        { match: args.match, type: args.type, noTtl: false, sort: 'name', order: 'asc', cursor, limit: Math.min(1000, args.limit - found.length) },
        reader,
      );
      found.push(...page.keys);
      more = page.cursor !== null;
      cursor = page.cursor ?? undefined;
    }
    // A SCAN batch is kept whole (none skipped), so the last page can overshoot --limit.
    return { keys: found.slice(0, args.limit), complete: !more && found.length <= args.limit };
  });
  if (args.json) {
    process.stdout.write(`${JSON.stringify({ keys: keys.map((k) => ({ key: k.key.text, type: k.type, ttl_ms: k.ttlMs })), complete })}\n`);
  } else {
    const lines = keys.map((k) => `${k.key.text}  ${k.type ?? '?'}  ${k.ttlMs === -1 ? 'no ttl' : `ttl ${k.ttlMs ?? '?'} ms`}`);
    lines.push(complete ? `${keys.length} keys` : `${keys.length} keys shown; more match (raise --limit)`);
    process.stdout.write(`${lines.join('\n')}\n`);
  }
  return 0;
}
