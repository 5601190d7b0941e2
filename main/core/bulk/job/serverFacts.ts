import type { Redis } from 'ioredis';
import { infoNumber } from '../../info/infoSnapshot';
import { serverIdentity } from '../../redis/serverIdentity';
import { parseInfo, parseInfoPairs, type InfoSections } from '../../info/parseInfo';
import { unlessRefused, type Refusal } from '../../redis/refusal';
import { commandRefusal } from './commandRefusal';

/** What a load needs to know about the server before it starts. */
export interface ServerFacts {
  /** redis_version: the Redis version the server is compatible with (Valkey says 7.2.4), which the checks of a Redis feature compare. */
  version: string;
  /** server_mode (Valkey) or redis_mode: standalone, cluster or sentinel. */
  mode: string;
  /** master or slave. */
  role: string;
  /** For a replica: "host:port" of its master. */
  master?: string;
  /** CONFIG GET save; undefined when CONFIG is refused (managed services, ACL). */
  save: string | undefined;
  appendonly: string | undefined;
  databases: number | undefined;
  /** Why CONFIG could not be read, when it could not. */
  configRefused?: string;
  /**
   * Why INFO could not be read (an ACL user without @dangerous), when it could not: version, mode
   * and role then come from HELLO, the keyspace from DBSIZE, and every memory and counter figure
   * below is 0 meaning unknown; the load says which protections that leaves out.
   */
  infoRefused?: string;
  usedMemory: number;
  /**
   * INFO memory used_memory_dataset (Redis 4.0+): the keys' share of used_memory,
   * without the server's own overhead; 0 when not reported.
   */
  usedMemoryDataset: number;
  /** 0: no limit. */
  maxmemory: number;
  maxmemoryPolicy: string;
  /** 0 when the server does not report it. */
  totalSystemMemory: number;
  /** INFO persistence aof_enabled, readable even where CONFIG is not. */
  aofEnabled: boolean;
  bgsaveInProgress: boolean;
  aofRewriteInProgress: boolean;
  /** Keys per non-empty DB (INFO keyspace lists only those; its counts are DBSIZE's). */
  keyspace: Map<number, { keys: number; expires: number }>;
  expiredKeys: number;
  evictedKeys: number;
}

export async function readInfo(redis: Redis, section?: string): Promise<InfoSections> {
  // Plain INFO (not INFO a b c): several sections in one call only exist from Redis 7.0.
  const text = section === undefined ? await redis.info() : await redis.info(section);
  return parseInfo(text);
}

/** One CONFIG GET parameter; undefined when refused. Several parameters per call need 7.0, so one each. */
async function configGet(redis: Redis, name: string): Promise<{ value?: string; refused?: string }> {
  try {
    const reply = (await redis.config('GET', name)) as unknown;
    if (Array.isArray(reply) && typeof reply[1] === 'string') return { value: reply[1] };
    return {};
  } catch (err) {
    const refused = commandRefusal(err);
    if (refused !== undefined) return { refused };
    throw err;
  }
}

export function keyspaceOf(info: InfoSections): Map<number, { keys: number; expires: number }> {
  const out = new Map<number, { keys: number; expires: number }>();
  for (const [name, value] of Object.entries(info['keyspace'] ?? {})) {
    const m = /^db(\d+)$/.exec(name);
    if (!m) continue;
    const pairs = parseInfoPairs(value);
    out.set(Number(m[1]), { keys: infoNumber(pairs['keys']), expires: infoNumber(pairs['expires']) });
  }
  return out;
}

/** SELECT reaches DBs 0..15 on every server with the default `databases`; CONFIG GET databases may be refused too. */
const DEFAULT_DATABASES = 16;

/**
 * Keys per non-empty DB, with INFO's server section: from INFO keyspace, or where INFO is
 * refused (an ACL user without @dangerous) from DBSIZE of each DB up to the default 16 and
 * `refused` set, so that what was looked at can be said. `redis` must be the caller's own
 * connection when INFO is refused (it is SELECTed).
 */
export async function dbKeyCounts(redis: Redis): Promise<{ counts: Map<number, number>; info: InfoSections; refused?: Refusal }> {
  let refused: Refusal | undefined;
  const text = await unlessRefused(redis.info(), ['INFO'], (r) => (refused = r));
  if (refused === undefined) {
    const info = parseInfo(String(text));
    return { counts: new Map([...keyspaceOf(info)].map(([db, { keys }]) => [db, keys])), info };
  }
  const counts = new Map<number, number>();
  for (let db = 0; db < DEFAULT_DATABASES; db++) {
    const selected = await redis.select(db).then(
      () => true,
      () => false,
    );
    if (!selected) break;
    const keys = await redis.dbsize();
    if (keys > 0) counts.set(db, keys);
  }
  return { counts, info: {}, refused };
}

export function factsFromInfo(info: InfoSections): Omit<ServerFacts, 'save' | 'appendonly' | 'databases' | 'configRefused'> {
  const id = serverIdentity(info['server']);
  const memory = info['memory'] ?? {};
  const persistence = info['persistence'] ?? {};
  const replication = info['replication'] ?? {};
  const stats = info['stats'] ?? {};
  const facts: ReturnType<typeof factsFromInfo> = {
    version: id.redisVersion,
    mode: id.mode === '' ? 'standalone' : id.mode,
    role: replication['role'] ?? 'master',
    usedMemory: infoNumber(memory['used_memory']),
    usedMemoryDataset: infoNumber(memory['used_memory_dataset']),
    maxmemory: infoNumber(memory['maxmemory']),
    maxmemoryPolicy: memory['maxmemory_policy'] ?? '',
    totalSystemMemory: infoNumber(memory['total_system_memory']),
    aofEnabled: persistence['aof_enabled'] === '1',
    bgsaveInProgress: persistence['rdb_bgsave_in_progress'] === '1',
    aofRewriteInProgress: persistence['aof_rewrite_in_progress'] === '1',
    keyspace: keyspaceOf(info),
    expiredKeys: infoNumber(stats['expired_keys']),
    evictedKeys: infoNumber(stats['evicted_keys']),
  };
  if (replication['master_host'] !== undefined) {
    facts.master = `${replication['master_host']}:${replication['master_port'] ?? '?'}`;
  }
  return facts;
}

/** HELLO's map (RESP2: a flat array of names and values). */
function helloPairs(reply: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(reply)) return out;
  for (let i = 0; i + 1 < reply.length; i += 2) {
    const value: unknown = reply[i + 1];
    if (typeof value === 'string' || typeof value === 'number') out[String(reply[i])] = String(value);
  }
  return out;
}

/**
 * What a load needs of INFO where INFO is refused: HELLO (@fast @connection, which a user without
 * @admin and @dangerous keeps, Redis 6.0+) names the version, the mode and the role, and DBSIZE of
 * each DB the keyspace. Memory, persistence and the counters stay unknown (0).
 */
async function factsWithoutInfo(redis: Redis, refused: Refusal): Promise<Omit<ServerFacts, 'save' | 'appendonly' | 'databases' | 'configRefused'>> {
  const hello = helloPairs(await redis.call('HELLO').catch(() => undefined));
  const { counts } = await dbKeyCounts(redis);
  return {
    ...factsFromInfo({}),
    version: hello['version'] ?? '',
    mode: hello['mode'] ?? 'standalone',
    // HELLO says "replica"; INFO (and the checks that read the facts) say "slave".
    role: hello['role'] === 'replica' ? 'slave' : (hello['role'] ?? 'master'),
    keyspace: new Map([...counts].map(([db, keys]) => [db, { keys, expires: 0 }])),
    infoRefused: refused.message,
  };
}

/** INFO plus CONFIG GET save/appendonly/databases, tolerating a refused CONFIG and a refused INFO. */
export async function readServerFacts(redis: Redis): Promise<ServerFacts> {
  let infoRefusal: Refusal | undefined;
  const text = await unlessRefused(redis.info(), ['INFO'], (r) => (infoRefusal = r));
  const known = infoRefusal === undefined ? factsFromInfo(parseInfo(String(text))) : await factsWithoutInfo(redis, infoRefusal);
  const [save, appendonly, databases] = await Promise.all([configGet(redis, 'save'), configGet(redis, 'appendonly'), configGet(redis, 'databases')]);
  const facts: ServerFacts = {
    ...known,
    save: save.value,
    appendonly: appendonly.value,
    databases: databases.value === undefined ? undefined : infoNumber(databases.value) || undefined,
  };
  const refused = save.refused ?? appendonly.refused ?? databases.refused;
  if (refused !== undefined) facts.configRefused = refused;
  return facts;
}

/** INFO stats expired_keys and evicted_keys: server-wide counters, compared before and after a load. */
export async function readKeyCounters(redis: Redis): Promise<{ expired: number; evicted: number }> {
  const stats = (await readInfo(redis, 'stats'))['stats'] ?? {};
  return { expired: infoNumber(stats['expired_keys']), evicted: infoNumber(stats['evicted_keys']) };
}
