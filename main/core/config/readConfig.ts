import type { Redis } from 'ioredis';
import { AppError } from '../../../app/errors';
import { serverIdentity } from '../redis/serverIdentity';
import { parseInfo } from '../info/parseInfo';
import { toAppError, toAppErrorFor } from '../pool/redisErrors';
import { refusalOf, type RefusalKind } from './configRefusal';
import type { ConfigNodeRef, NodeAccess } from './configNodes';
import { foldAliases } from './paramGroups';

export interface NodeRead {
  ref: ConfigNodeRef;
  state: 'ok' | 'refused' | 'down' | 'error';
  /** down and error: in words. */
  error?: string;
  refusal?: { kind: RefusalKind; reply: string };
  /** CONFIG GET *, old names folded into new (paramGroups.ts). */
  values?: Map<string, string>;
  aliases?: Map<string, string[]>;
  configFile?: string;
  /** The server's own version and name (serverIdentity). */
  version?: string;
  server?: string;
}

/** A flat CONFIG GET reply (name, value, name, value…) as a map. */
export function replyPairs(reply: unknown): Map<string, string> {
  if (!Array.isArray(reply)) throw new AppError('REDIS', 'CONFIG GET did not answer with a list');
  const out = new Map<string, string>();
  for (let i = 0; i + 1 < reply.length; i += 2) out.set(String(reply[i]), String(reply[i + 1]));
  return out;
}

/** One parameter's value on one node (undefined: the node has no such parameter). */
export async function configGet(redis: Redis, name: string): Promise<string | undefined> {
  const pairs = replyPairs(await redis.call('CONFIG', 'GET', name));
  return pairs.values().next().value;
}

function failed(ref: ConfigNodeRef, err: AppError): NodeRead {
  const down = err.code === 'UNREACHABLE' || err.code === 'TIMEOUT';
  return { ref, state: down ? 'down' : 'error', error: err.message };
}

/** INFO server's config_file and version; undefined where INFO is refused too (an ACL without it). */
async function serverFacts(redis: Redis): Promise<{ configFile?: string; version?: string; server?: string }> {
  try {
    const server = parseInfo(await redis.info('server'))['server'] ?? {};
    const configFile = server['config_file'];
    const id = serverIdentity(server);
    return { ...(configFile === undefined ? {} : { configFile }), ...(id.version === '' ? {} : { version: id.version, server: id.name }) };
  } catch {
    return {};
  }
}

/** CONFIG GET * and INFO server of one node; a refusal or failure is a state, not an exception. */
export async function readNode(access: NodeAccess, ref: ConfigNodeRef): Promise<NodeRead> {
  let redis: Redis;
  try {
    redis = await access.connect(ref.address);
  } catch (err) {
    return failed(ref, toAppError(err));
  }
  const facts = serverFacts(redis);
  try {
    const reply = await redis.call('CONFIG', 'GET', '*');
    const { values, aliases } = foldAliases(replyPairs(reply));
    return { ref, state: 'ok', values, aliases, ...(await facts) };
  } catch (err) {
    const refusal = refusalOf(err);
    if (refusal !== undefined) return { ref, state: 'refused', refusal, ...(await facts) };
    await facts;
    return failed(ref, toAppErrorFor(redis, err));
  }
}
