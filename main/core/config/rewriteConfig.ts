import type { Redis } from 'ioredis';
import type { ConfigRewriteResult } from '../../../app/schemas/config';
import { parseInfo } from '../info/parseInfo';
import { toAppErrorFor } from '../pool/redisErrors';
import { refusalError } from './configRefusal';
import { reach, type ConfigNodeRef, type NodeAccess } from './configNodes';

/** Why a CONFIG REWRITE failed, in words a person can act on. */
export function explainRewrite(address: string, configFile: string | undefined, reply: string): string {
  if (/without a config file/i.test(reply)) {
    return `${address} was started without a config file, so there is nothing to rewrite: what CONFIG SET changed there lasts until it restarts. To keep a change, add it to the configuration the server starts with.`;
  }
  const io = /Rewriting config file:\s*(.*)$/i.exec(reply);
  if (io !== null) {
    const file = configFile === undefined || configFile === '' ? 'its config file' : `its config file ${configFile}`;
    return `${address} could not rewrite ${file}: ${io[1] ?? reply}. The settings in effect are unchanged, but changes made with CONFIG SET are lost at its next restart until the Redis process can write the file and create a temporary one beside it in the same folder.`;
  }
  return `${address} refused CONFIG REWRITE: ${reply}`;
}

async function configFileOf(redis: Redis): Promise<string | undefined> {
  try {
    return parseInfo(await redis.info('server'))['server']?.['config_file'];
  } catch {
    return undefined;
  }
}

/** CONFIG REWRITE on one node; its failure is this node's result, explained. */
export async function rewriteOnNode(access: NodeAccess, ref: ConfigNodeRef): Promise<ConfigRewriteResult> {
  const { address } = ref;
  const node = await reach(access, address);
  if ('error' in node) return { address, ok: false, error: node.error };
  const { redis } = node;
  const configFile = await configFileOf(redis);
  const file = configFile === undefined ? {} : { configFile };
  try {
    await redis.call('CONFIG', 'REWRITE');
    return { address, ok: true, ...file };
  } catch (err) {
    const refused = refusalError(err);
    if (refused !== undefined) return { address, ok: false, ...file, error: refused };
    const e = toAppErrorFor(redis, err);
    const reply = err instanceof Error ? err.message : e.message;
    return { address, ok: false, ...file, error: { code: e.code, message: e.code === 'REDIS' ? explainRewrite(address, configFile, reply) : e.message } };
  }
}
