import type { Redis } from 'ioredis';
import { toColumns } from '../../../app/clientColumns';
import { AppError } from '../../../app/errors';
import {
  BIG_OMEM_BYTES,
  NEAR_LIMIT_SHARE,
  type ClientId,
  type ClientKind,
  type ClientRow,
  type ClientsList,
  type NodeClients,
  type PauseMode,
} from '../../../app/schemas/clients';
import type { ProfileId } from '../../../app/schemas/common';
import { toAppError, toAppErrorFor } from '../pool/redisErrors';
import type { ProfileNode } from '../pool/profileNodes';
import type { PoolApi } from '../pool/types';
import { parseClientList } from '../redis/clientList';
import { readRefusal, triedCommand } from '../redis/refusal';
import { mayRun, refusals } from '../pool/commandSupport';
import { restrictionLine, type Restriction } from '../../../app/schemas/restrictions';
import { kindOf, markClient } from './highlights';
import { keepMost, nodeTotals } from './nodeTotals';
import { PauseBook, type Pause } from './pauseBook';
import { readNode } from './readNode';

/** Clients sent per node, and over all nodes of one answer: past these, the highlighted and biggest are kept. */
export const MAX_SHOWN_PER_NODE = 20_000;
export const MAX_SHOWN_TOTAL = 50_000;
/** What a node that refuses CLIENT LIST does not show. */
const CLIENT_LIST_REFUSED = 'its clients are not listed or counted, and none can be killed or paused from here';

/** The operator's writes, asked before the page offers them, and what each refused takes away. */
const WRITES: readonly { args: string[]; effect: string }[] = [
  { args: ['CLIENT', 'KILL', 'ID', '1'], effect: 'no client can be killed on this node from here' },
  { args: ['CLIENT', 'PAUSE', '1', 'WRITE'], effect: 'this node cannot be paused or unpaused from here' },
];

/** The writes `redis` may not run (ACL DRYRUN, COMMAND INFO, or the profile's remembered refusal), one line each. */
async function refusedWrites(redis: Redis, connectionId: string): Promise<Restriction[]> {
  const may = await Promise.all(WRITES.map((w) => mayRun(redis, w.args, connectionId)));
  return WRITES.filter((_, i) => may[i] === false).map((w) => ({ command: triedCommand(w.args), effect: w.effect }));
}

/** A write refused at run time: remembered for the profile (the next list shows its line), and said in that line. */
function refusedError(connectionId: string, redis: Redis, err: unknown, tried: string[]): AppError {
  const refused = refusals.note(connectionId, err, tried);
  if (refused === undefined) return toAppErrorFor(redis, err);
  const effect = WRITES.find((w) => triedCommand(w.args) === refused.command)?.effect ?? 'it was refused by the server';
  return new AppError('NOPERM', restrictionLine({ command: refused.command, effect }));
}

/** Nodes read at once: a large cluster is read in waves, not with a hundred CLIENT LISTs at the same moment. */
const NODE_CONCURRENCY = 8;

/** A data node of the profile, as its servers list it. */
type ListedNode = ProfileNode;

/**
 * What the service is given rather than imports: how the Monitor and the Overview find a
 * profile's nodes, and how MONITOR tells Cacheboard's own connections (other job folders).
 */
export interface ClientsDeps {
  pool: Pick<PoolApi, 'node'>;
  /** The data nodes of a connection's profile: a cluster's shard by shard, a replication tree, a sentinel set. */
  nodes(connectionId: string): Promise<ListedNode[]>;
  /** The node an address from the page names, checked against those nodes (the connection carries the profile's password). */
  nodeOf(connectionId: string, address: string): Promise<string>;
  /** The addresses of Cacheboard's own connections in a CLIENT LIST reply. */
  own(clientList: string): ReadonlySet<string>;
  now?: () => number;
}

/** A client as the audit log and the kill's answer name it. */
export interface KilledClient {
  id: string;
  addr: string;
  name: string;
}

async function inWaves<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await fn(items[i] as T);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}

function secondsLeft(p: Pause, now: number): string {
  return `${Math.max(1, Math.ceil((p.until - now) / 1000))} s`;
}

/**
 * The clients of every node of a profile (CLIENT LIST, client-output-buffer-limit) and the
 * operator's writes on them: CLIENT KILL by ID, CLIENT PAUSE and UNPAUSE. Connections are the
 * pool's monitoring ones (short timeouts, no offline queue); nodes are the ones the profile's
 * own servers list, never an address typed by a user. Roles, confirmations and the audit
 * are the RPC domain's.
 */
export class ClientsService {
  private readonly pauses: PauseBook;
  /** One read per (profile, connection, idle threshold) at a time: viewers refreshing together share it. */
  private readonly reading = new Map<string, Promise<ClientsList>>();
  private readonly now: () => number;

  constructor(private readonly deps: ClientsDeps) {
    this.now = deps.now ?? Date.now;
    this.pauses = new PauseBook(this.now);
  }

  list(profileId: ProfileId, connectionId: string, idleSeconds: number): Promise<ClientsList> {
    const key = JSON.stringify([profileId, connectionId, idleSeconds]);
    let run = this.reading.get(key);
    if (run === undefined) {
      run = this.read(profileId, connectionId, idleSeconds).finally(() => this.reading.delete(key));
      this.reading.set(key, run);
    }
    return run;
  }

  /**
   * CLIENT KILL ID on one node; the client is looked up first, for the audit log's addr and name,
   * and so that a replication link is killed only when the caller says it means to break it.
   */
  async kill(connectionId: string, address: string, id: ClientId, breakReplication = false): Promise<{ killed: boolean; client?: KilledClient }> {
    const redis = await this.deps.pool.node(connectionId, await this.deps.nodeOf(connectionId, address));
    const found = await findClient(redis, id);
    if (found === undefined) return { killed: false };
    const { kind, ...client } = found;
    if ((kind === 'replica' || kind === 'master') && !breakReplication) {
      const link = kind === 'replica' ? 'a replica’s replication link (flag S)' : 'this replica’s link to its master (flag M)';
      throw new AppError(
        'VALIDATION',
        `client ${id} at ${client.addr} is ${link}: killing it breaks replication and may force a full resync. Kill it again with breakReplication set if that is what you mean.`,
        'breakReplication',
      );
    }
    const n = await redis.client('KILL', 'ID', id).catch((err: unknown) => {
      throw refusedError(connectionId, redis, err, ['CLIENT', 'KILL']);
    });
    return { killed: Number(n) > 0, client };
  }

  async pause(
    profileId: ProfileId,
    connectionId: string,
    address: string,
    mode: PauseMode,
    ms: number,
  ): Promise<{ address: string; mode: PauseMode; until: number }> {
    const node = await this.deps.nodeOf(connectionId, address);
    const redis = await this.deps.pool.node(connectionId, node);
    const until = this.now() + ms;
    await redis.call('CLIENT', 'PAUSE', String(ms), mode).catch((err: unknown) => {
      throw refusedError(connectionId, redis, err, ['CLIENT', 'PAUSE']);
    });
    this.pauses.set(profileId, node, { mode, until });
    return { address: node, mode, until };
  }

  async unpause(profileId: ProfileId, connectionId: string, address: string): Promise<{ address: string }> {
    const node = await this.deps.nodeOf(connectionId, address);
    const held = this.pauses.get(profileId, node);
    if (held?.mode === 'ALL') {
      // Redis would queue the UNPAUSE behind the pause it is meant to end, and the call time out.
      throw new AppError(
        'CONFLICT',
        `${node} is paused for every command (PAUSE ALL) for ${secondsLeft(held, this.now())} more: Redis holds CLIENT UNPAUSE behind that pause too, so it can only end by itself.`,
        'address',
      );
    }
    const redis = await this.deps.pool.node(connectionId, node);
    await redis.client('UNPAUSE').catch((err: unknown) => {
      throw refusedError(connectionId, redis, err, ['CLIENT', 'UNPAUSE']);
    });
    this.pauses.clear(profileId, node);
    return { address: node };
  }

  private async read(profileId: ProfileId, connectionId: string, idleSeconds: number): Promise<ClientsList> {
    const nodes = await this.deps.nodes(connectionId);
    const read = await inWaves(nodes, NODE_CONCURRENCY, (n) => this.readOne(profileId, connectionId, n, idleSeconds));
    // The caps apply in node order (a cluster: shard by shard), so a later node is the one cut short.
    let budget = MAX_SHOWN_TOTAL;
    const out = read.map(({ rows, ...node }): NodeClients => {
      const kept = keepMost(rows, Math.min(MAX_SHOWN_PER_NODE, budget));
      budget -= kept.length;
      return { ...node, clients: toColumns(kept), notShown: rows.length - kept.length };
    });
    return { at: this.now(), idleSeconds, nearLimitShare: NEAR_LIMIT_SHARE, bigOmemBytes: BIG_OMEM_BYTES, nodes: out };
  }

  /** One node's clients as rows (the caps and the columns come after), or why there are none. */
  private async readOne(
    profileId: ProfileId,
    connectionId: string,
    n: ListedNode,
    idleSeconds: number,
  ): Promise<Omit<NodeClients, 'clients' | 'notShown'> & { rows: ClientRow[] }> {
    const paused = this.pauses.get(profileId, n.address);
    const base = {
      address: n.address,
      role: n.role,
      up: n.up,
      ...(n.master === undefined ? {} : { master: n.master }),
      ...(paused === undefined ? {} : { paused }),
      rows: [],
      unparsed: 0,
      totals: nodeTotals([]),
    };
    if (paused?.mode === 'ALL') {
      const message = `Paused for every command (PAUSE ALL) for ${secondsLeft(paused, this.now())} more: CLIENT LIST would wait behind the pause, so this node is read again once it ends.`;
      return { ...base, error: { code: 'PAUSED', message } };
    }
    // A node the discovery found down is asked all the same: its own error says why (refused, AUTH, ACL).
    try {
      const redis = await this.deps.pool.node(connectionId, n.address);
      const { reply, limits, limitsNote } = await readNode(redis, n.address);
      const text = reply.toString('latin1');
      const parsed = parseClientList(text);
      const own = this.deps.own(text);
      const rows = parsed.clients.map((c) => markClient(c, { limits, idleSeconds, own }));
      const writeRestrictions = await refusedWrites(redis, connectionId);
      return {
        ...base,
        ...(writeRestrictions.length === 0 ? {} : { writeRestrictions }),
        ...(limits === undefined ? {} : { limits }),
        ...(limitsNote === undefined ? {} : { limitsNote }),
        rows,
        unparsed: parsed.unparsed,
        totals: nodeTotals(rows),
      };
    } catch (err) {
      const refused = readRefusal(err, ['CLIENT', 'LIST']);
      if (refused !== undefined) return { ...base, restrictions: [{ command: refused.command, effect: CLIENT_LIST_REFUSED }] };
      const e = toAppError(err, { label: n.address });
      return { ...base, error: { code: e.code, message: e.message } };
    }
  }
}

/** The client with this id on the node now (CLIENT LIST ID, Redis 6.2+; the whole list before). */
async function findClient(redis: Redis, id: string): Promise<(KilledClient & { kind: ClientKind }) | undefined> {
  const reply = await redis.callBuffer('CLIENT', 'LIST', 'ID', id).catch(async (err: unknown) => {
    if (!/syntax|unknown|wrong number/i.test(err instanceof Error ? err.message : '')) throw toAppErrorFor(redis, err);
    return redis.callBuffer('CLIENT', 'LIST');
  });
  const found = parseClientList(Buffer.isBuffer(reply) ? reply : String(reply)).clients.find((c) => c.id === id);
  return found === undefined ? undefined : { id: found.id, addr: found.addr, name: found.name, kind: kindOf(found.flags) };
}
