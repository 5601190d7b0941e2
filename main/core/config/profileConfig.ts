import type { ConfigRewriteResult, ConfigSetResult, ConfigView } from '../../../app/schemas/config';
import { pageNodes, type NodeDiscovery } from '../pool/profileNodes';
import type { PoolApi } from '../pool/types';
import { isSecret } from '../text/configSecrets';
import { eachNode, MAX_CONFIG_NODES, targetNodes, type NodeAccess } from './configNodes';
import { configView } from './configView';
import { readNode } from './readConfig';
import { rewriteOnNode } from './rewriteConfig';
import { setOnNode } from './setConfig';

/** Which nodes a write goes to: one the servers list, or every one. */
export type ConfigTarget = { scope: 'node'; address: string } | { scope: 'every' };

/** One node's entry on the record: 'started' before the write, then its outcome. */
export type NodeRecord = (address: string) => (outcome: 'started' | 'ok' | 'failed', detail?: string) => void;

/**
 * A connection's nodes as the Config page reaches them: the Overview's discovery (each node
 * asked, a cluster's too: every node is read anyway), over the pool's monitoring connections.
 */
export function configAccess(pool: Pick<PoolApi, 'topology' | 'node' | 'nodes'>, discovery: NodeDiscovery, connectionId: string): NodeAccess {
  const nodes = pageNodes(pool, discovery, 'asked');
  return {
    topology: pool.topology(connectionId),
    list: () => nodes.nodes(connectionId),
    connect: (address) => pool.node(connectionId, address),
  };
}

/** CONFIG GET * of the first MAX_CONFIG_NODES nodes, merged into the page's rows. */
export async function readProfileConfig(access: NodeAccess): Promise<ConfigView> {
  const listed = await access.list();
  const read = listed.slice(0, MAX_CONFIG_NODES);
  const reads = await eachNode(read, (n) => readNode(access, n));
  return configView(reads, access.topology, listed.length - read.length);
}

/** CONFIG SET on the target nodes, each node's outcome on the record (secrets masked). */
export async function setProfileConfig(
  access: NodeAccess,
  target: ConfigTarget,
  name: string,
  value: string,
  record: NodeRecord,
): Promise<{ name: string; secret: boolean; results: ConfigSetResult[] }> {
  const results = await eachNode(await targetNodes(access, target), async (n) => {
    const trail = record(n.address);
    trail('started');
    const { result, detail } = await setOnNode(access, n, name, value);
    trail(result.ok ? 'ok' : 'failed', detail);
    return result;
  });
  return { name, secret: isSecret(name, [value]), results };
}

/** CONFIG REWRITE on the target nodes, each node's outcome on the record. */
export async function rewriteProfileConfig(access: NodeAccess, target: ConfigTarget, record: NodeRecord): Promise<{ results: ConfigRewriteResult[] }> {
  const results = await eachNode(await targetNodes(access, target), async (n) => {
    const trail = record(n.address);
    trail('started');
    const r = await rewriteOnNode(access, n);
    const file = r.configFile === undefined || r.configFile === '' ? 'the config file' : r.configFile;
    trail(r.ok ? 'ok' : 'failed', r.ok ? `rewrote ${file}` : r.error?.message);
    return r;
  });
  return { results };
}
