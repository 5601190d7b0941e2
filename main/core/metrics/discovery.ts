import type { InfoSections } from '../info/parseInfo';
import { replicaLinksOf } from '../info/replicaLinks';
import { readRefusal } from '../redis/refusal';
import { replicationOf } from './replicationInfo';
import { treeOrder } from './treeOrder';

export const MAX_NODES = 64;

export interface DiscoveredNode {
  address: string;
  /** "master", "replica", or "unknown" for a node never reached. */
  role: string;
  /** The address of the node it replicates from, as listed here. */
  master?: string;
  up: boolean;
  error?: string;
  /** Cluster masters: their slot ranges (CLUSTER NODES). */
  slots?: Array<[number, number]>;
  /** Cluster nodes: CLUSTER NODES flags other than the role. */
  flags?: string[];
  /** The INFO the node answered with, for callers that want more than the tree. */
  sections?: InfoSections;
}

export interface Discovery {
  /** Tree order: each master before its replicas, siblings by address. */
  nodes: DiscoveredNode[];
  /** Addresses that turned out to be another name of a listed node (same run_id) -> that node's address. */
  aliases: Map<string, string>;
}

export type FetchInfo = (address: string) => Promise<InfoSections>;

interface Walk {
  nodes: Map<string, DiscoveredNode>;
  aliases: Map<string, string>;
  byRunId: Map<string, string>;
  fetch: FetchInfo;
  maxNodes: number;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Reach one node and record it; returns the address it is listed under, or
 * undefined when the node limit is reached. The same server can be reported
 * under several names (a replica announces its IP, the profile names a host),
 * so nodes are told apart by INFO's run_id, not by address.
 */
async function visit(w: Walk, address: string, hint: { role?: string; master?: string }): Promise<string | undefined> {
  const known = w.aliases.get(address) ?? (w.nodes.has(address) ? address : undefined);
  if (known !== undefined) return known;
  if (w.nodes.size >= w.maxNodes) return undefined;
  // Reserve the address before awaiting, so a parallel visit does not fetch it twice.
  const node: DiscoveredNode = { address, role: hint.role ?? 'unknown', up: false };
  if (hint.master !== undefined) node.master = hint.master;
  w.nodes.set(address, node);
  let sections: InfoSections;
  try {
    sections = await w.fetch(address);
  } catch (err) {
    node.error = errorText(err);
    // INFO refused (an ACL user without @dangerous): the node answered; only its figures and links are unknown.
    if (readRefusal(err, ['INFO']) !== undefined) node.up = true;
    return address;
  }
  const runId = sections['server']?.['run_id'];
  const twin = runId === undefined ? undefined : w.byRunId.get(runId);
  if (twin !== undefined && twin !== address) {
    w.nodes.delete(address);
    w.aliases.set(address, twin);
    return twin;
  }
  if (runId !== undefined) w.byRunId.set(runId, address);
  const repl = replicationOf(sections);
  node.up = true;
  node.role = repl.role;
  node.sections = sections;
  delete node.master;
  if (repl.masterAddress !== undefined) node.master = repl.masterAddress;
  return address;
}

/** From `start` up through master_host/master_port to the top; returns the path, top last. */
async function climb(w: Walk, start: string): Promise<string[]> {
  const path: string[] = [];
  let next: string | undefined = start;
  while (next !== undefined && path.length < w.maxNodes) {
    const at = await visit(w, next, path.length === 0 ? {} : { role: 'master' });
    // A replication loop (A replicates from B, B from A) ends here: the address was seen already.
    if (at === undefined || path.includes(at)) break;
    path.push(at);
    const node = w.nodes.get(at);
    next = node?.up === true && node.role === 'replica' ? node.master : undefined;
  }
  return path;
}

/** Breadth-first down the slaveN lists, one level at a time with the level's nodes fetched in parallel. */
async function descend(w: Walk, roots: string[]): Promise<void> {
  const expanded = new Set<string>();
  let level = roots;
  while (level.length > 0) {
    const next: string[] = [];
    await Promise.all(
      level.map(async (address) => {
        if (expanded.has(address)) return;
        expanded.add(address);
        const node = w.nodes.get(address);
        if (node?.sections === undefined) return;
        const children = await Promise.all(replicaLinksOf(node.sections).map((link) => visit(w, link.address, { role: 'replica', master: address })));
        for (const child of children) if (child !== undefined && !expanded.has(child)) next.push(child);
      }),
    );
    level = next;
  }
}

/** Masters' addresses as listed (a replica may name its master by another alias). */
function resolveMasters(w: Walk): DiscoveredNode[] {
  const all = [...w.nodes.values()];
  for (const n of all) if (n.master !== undefined) n.master = w.aliases.get(n.master) ?? n.master;
  return all;
}

/**
 * The whole replication tree around `start`: from a replica up to its top
 * master first, then down every master's replicas (and theirs in turn).
 * Bounded by maxNodes and a visited set, so a loop or a huge tree cannot run
 * away. Unreachable nodes are listed down, with the role and master their
 * neighbour reported.
 */
export async function discoverTopology(start: string, fetch: FetchInfo, opts: { maxNodes?: number } = {}): Promise<Discovery> {
  const w: Walk = { nodes: new Map(), aliases: new Map(), byRunId: new Map(), fetch, maxNodes: opts.maxNodes ?? MAX_NODES };
  const path = await climb(w, start);
  // Top first; a replica whose master is down still has its own replicas to show.
  const roots = [...path].reverse().filter((a) => w.nodes.get(a)?.up === true);
  await descend(w, roots);
  return { nodes: treeOrder(resolveMasters(w), path.at(-1)), aliases: w.aliases };
}
