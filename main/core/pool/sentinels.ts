import { Redis } from 'ioredis';
import { AppError } from '../../../app/errors';
import { formatHostPort, type NodeAddress } from '../../../app/hostPort';
import { DEFAULTS, tlsOptions } from './connectionOptions';
import { mapRedisError } from './redisErrors';
import { withVia, type Via } from './sshVia';
import { plainSpecAt } from './topology';
import { tlsBehind } from './tunnelTls';
import type { ProfileSpec, TopologyNode } from './types';

type SentinelTopology = Extract<NonNullable<ProfileSpec['topology']>, { kind: 'sentinel' }>;

function sentinelTopology(spec: ProfileSpec): SentinelTopology {
  if (spec.topology?.kind !== 'sentinel') {
    throw new AppError('INTERNAL', `"${spec.name}" is not a sentinel profile.`);
  }
  return spec.topology;
}

/** A one-shot client to one sentinel, with the sentinels' own credentials. */
function sentinelClient(spec: ProfileSpec, at: NodeAddress, timeoutMs: number, via: Via | undefined): Redis {
  const t = sentinelTopology(spec);
  const tls = tlsOptions(spec);
  const to = via === undefined ? at : via.forward(at);
  const redis = new Redis({
    host: to.host,
    port: to.port,
    lazyConnect: true,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
    retryStrategy: () => null,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    // A sentinel's INFO has no replication role for ioredis' ready check to read.
    enableReadyCheck: false,
    disableClientInfo: true,
    connectionName: 'cacheboard:sentinel',
    ...(t.sentinelUsername === undefined ? {} : { username: t.sentinelUsername }),
    ...(t.sentinelPassword === undefined ? {} : { password: t.sentinelPassword }),
    // Through SSH the certificate is checked against the sentinel's own address, not the forwarded port's.
    ...(tls === undefined ? {} : { tls: via === undefined ? tls : tlsBehind(tls, at.host) }),
  });
  return redis;
}

/**
 * Ask the sentinels in turn until one answers: `ask` returns undefined when
 * that sentinel does not monitor the master name. Throws VALIDATION on
 * topology.masterName when every sentinel that answered does not know it, and
 * UNREACHABLE (naming each sentinel and why) when none answered.
 */
export async function askSentinels<T>(
  spec: ProfileSpec,
  ask: (sentinel: Redis, masterName: string) => Promise<T | undefined>,
  timeoutMs: number = DEFAULTS.testConnectTimeoutMs,
  through?: Via,
): Promise<{ value: T; sentinel: string }> {
  return withVia(spec, through, (via) => askEach(spec, ask, timeoutMs, via));
}

async function askEach<T>(
  spec: ProfileSpec,
  ask: (sentinel: Redis, masterName: string) => Promise<T | undefined>,
  timeoutMs: number,
  via: Via | undefined,
): Promise<{ value: T; sentinel: string }> {
  const t = sentinelTopology(spec);
  const failures: string[] = [];
  let unknown = 0;
  for (const at of t.sentinels) {
    const address = formatHostPort(at);
    const redis = sentinelClient(spec, at, timeoutMs, via);
    // The cause (WRONGPASS, ECONNREFUSED) arrives as an "error" event; the call itself only
    // fails with "Connection is closed." (no ready check here, so AUTH is answered after connect).
    let cause: unknown;
    redis.on('error', (err: unknown) => {
      cause = err;
    });
    try {
      await redis.connect();
      const value = await ask(redis, t.masterName);
      if (value !== undefined) return { value, sentinel: address };
      unknown++;
      failures.push(`${address}: does not monitor "${t.masterName}"`);
    } catch (err) {
      const ctx = {
        host: at.host,
        port: at.port,
        connectTimeoutMs: timeoutMs,
        commandTimeoutMs: timeoutMs,
        ...(t.sentinelPassword === undefined ? {} : { password: t.sentinelPassword }),
      };
      failures.push(`${address}: ${mapRedisError(cause ?? err, ctx).detail}`);
    } finally {
      redis.disconnect();
    }
  }
  if (unknown === t.sentinels.length) {
    throw new AppError(
      'VALIDATION',
      `No sentinel monitors a master named "${t.masterName}" (asked ${t.sentinels.map(formatHostPort).join(', ')}). Check the master name.`,
      'topology.masterName',
    );
  }
  throw new AppError('UNREACHABLE', `No sentinel could name the master "${t.masterName}": ${failures.join('; ')}.`);
}

/** SENTINEL GET-MASTER-ADDR-BY-NAME: [ip, port], or null for an unknown name. */
async function masterAddress(sentinel: Redis, name: string): Promise<NodeAddress | undefined> {
  const reply = await sentinel.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', name);
  if (!Array.isArray(reply) || reply.length < 2) return undefined;
  return { host: String(reply[0]), port: Number(reply[1]) };
}

/**
 * A sentinel profile's spec resolved to the master the sentinels name right
 * now: a plain spec (no topology) with the profile's credentials, DB and TLS.
 * Any other spec is returned as it is. For jobs that open their own sockets
 * (bulk pipe, sampling, trials, MONITOR), which need one node's address; a
 * failover during the job ends their connection, it is not followed.
 */
export async function currentMasterSpec(spec: ProfileSpec, timeoutMs?: number, via?: Via): Promise<ProfileSpec> {
  if (spec.topology?.kind !== 'sentinel') return spec;
  const { value } = await askSentinels(spec, masterAddress, timeoutMs, via);
  return plainSpecAt(spec, value);
}

/**
 * The master each sentinel names right now (SENTINEL MASTER, all asked at
 * once): one "host:port" per sentinel that answered. For telling a failover
 * from a connection that reached the old master through a sentinel not yet
 * updated: the sentinels' majority says which it is.
 */
export async function mastersNamed(spec: ProfileSpec, timeoutMs: number = DEFAULTS.testConnectTimeoutMs, through?: Via): Promise<string[]> {
  const t = sentinelTopology(spec);
  const answers = await withVia(spec, through, (via) =>
    Promise.all(
      t.sentinels.map(async (at) => {
        const redis = sentinelClient(spec, at, timeoutMs, via);
        redis.on('error', () => undefined);
        try {
          await redis.connect();
          const p = pairs(await redis.call('SENTINEL', 'MASTER', t.masterName));
          return p['ip'] === undefined ? [] : [formatHostPort({ host: p['ip'], port: Number(p['port']) })];
        } catch {
          return [];
        } finally {
          redis.disconnect();
        }
      }),
    ),
  );
  return answers.flat();
}

/** SENTINEL MASTER / REPLICAS / SENTINELS entries are flat field-value lists. */
function pairs(reply: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(reply)) return out;
  for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
  return out;
}

/** Flags a sentinel sets on an instance it cannot rely on. */
const UNHEALTHY = new Set(['s_down', 'o_down', 'disconnected']);

function nodeOf(p: Record<string, string>, role: TopologyNode['role'], master?: string): TopologyNode {
  const flags = (p['flags'] ?? '').split(',').filter((f) => f !== '');
  return {
    address: formatHostPort({ host: p['ip'] ?? '', port: Number(p['port']) }),
    role,
    ...(master === undefined ? {} : { master }),
    flags,
    healthy: !flags.some((f) => UNHEALTHY.has(f)),
  };
}

/**
 * The master, its replicas and the sentinels as one sentinel sees them
 * (SENTINEL MASTER, REPLICAS, SENTINELS). The answering sentinel is listed too.
 */
export async function sentinelNodes(spec: ProfileSpec, timeoutMs?: number): Promise<TopologyNode[]> {
  const { value, sentinel } = await askSentinels(
    spec,
    async (redis, name) => {
      const master = pairs(
        await redis.call('SENTINEL', 'MASTER', name).catch((err: unknown) => {
          // "ERR No such master with that name"
          if (/no such master/i.test(String((err as Error).message))) return null;
          throw err;
        }),
      );
      if (master['ip'] === undefined) return undefined;
      const [replicas, sentinels] = await Promise.all([redis.call('SENTINEL', 'REPLICAS', name), redis.call('SENTINEL', 'SENTINELS', name)]);
      return { master, replicas: Array.isArray(replicas) ? replicas.map(pairs) : [], sentinels: Array.isArray(sentinels) ? sentinels.map(pairs) : [] };
    },
    timeoutMs,
  );
  const masterNode = nodeOf(value.master, 'master');
  return [
    masterNode,
    ...value.replicas.map((r) => nodeOf(r, 'replica', masterNode.address)),
    { address: sentinel, role: 'sentinel', flags: [], healthy: true },
    ...value.sentinels.map((s) => nodeOf(s, 'sentinel')),
  ];
}
