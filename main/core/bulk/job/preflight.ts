import { AppError } from '../../../../app/errors';
import type { LoadMode } from '../types';
import type { ServerFacts } from './serverFacts';

/** What the pre-flight needs to know about the load itself. */
export interface PreflightPlan {
  mode: LoadMode;
  targetDb: number;
  stagingDb?: number;
  /** Input size when known (a file). */
  inputBytes?: number;
  bgsave: boolean;
  /** "host:port", for messages. */
  address: string;
  /** One master of a cluster load, which routes every command to its slot's owner. */
  routedBySlot?: boolean;
  /** Start although the estimate does not fit under an evicting maxmemory-policy (see refuseEviction). */
  allowEvictionRisk?: boolean;
}

export interface PreflightResult {
  warnings: string[];
  /** Rough size of the dataset the load adds; see estimateDatasetBytes. */
  estimateBytes?: number;
}

/** [major, minor, patch] of a redis_version; unknown parts are 0. */
export function parseVersion(version: string): [number, number, number] {
  const [a, b, c] = version.split('.').map((p) => Number.parseInt(p, 10));
  const n = (x: number | undefined): number => (x === undefined || Number.isNaN(x) ? 0 : x);
  return [n(a), n(b), n(c)];
}

export function atLeast(version: string, major: number, minor = 0): boolean {
  const [a, b] = parseVersion(version);
  return a > major || (a === major && b >= minor);
}

/**
 * Why SWAPDB cannot be used on this server, or undefined when it can.
 * SWAPDB exists from Redis 4.0, and a cluster node has only DB 0 (SWAPDB
 * and SELECT n are refused in cluster mode), so there is nothing to swap with.
 */
export function swapUnavailableReason(version: string, mode: string): string | undefined {
  if (mode === 'cluster') {
    return 'the server runs in cluster mode, where only DB 0 exists and SWAPDB is refused';
  }
  if (version !== '' && !atLeast(version, 4, 0)) {
    return `SWAPDB needs Redis 4.0 or later and the server is ${version}`;
  }
  return undefined;
}

/** FLUSHDB ASYNC frees memory in a background thread from Redis 4.0; older servers only flush in place. */
export function flushArgs(version: string): ['ASYNC'] | [] {
  return version === '' || atLeast(version, 4, 0) ? ['ASYNC'] : [];
}

/**
 * Rough size of the dataset the load adds: the input's size in bytes.
 * RESP and command files carry keys and values nearly byte for byte; CSV and
 * NDJSON add separators and column names that Redis does not store. Against
 * that, Redis spends ~50–80 bytes a key on its own structures (dict entry,
 * object header, SDS headers), so for tiny records the real figure can be a
 * few times the input. It is a first guess for the warnings below; during the
 * load the measured memory growth is projected to the end of the input
 * (memoryProjection) and warned about again if it would not fit.
 */
export function estimateDatasetBytes(inputBytes: number | undefined): number | undefined {
  return inputBytes === undefined || inputBytes <= 0 ? undefined : inputBytes;
}

export function formatBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v >= 10 || u === 0 ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
}

function refuse(message: string, field?: string): never {
  throw new AppError('VALIDATION', message, field);
}

function checkDb(facts: ServerFacts, db: number, what: string, field: string, address: string): void {
  if (facts.mode === 'cluster' && db !== 0) {
    refuse(`${address} runs in cluster mode, where only DB 0 exists; the ${what} DB ${db} cannot be used`, field);
  }
  if (facts.databases !== undefined && db >= facts.databases) {
    refuse(`The ${what} DB ${db} does not exist on ${address}: it has ${facts.databases} databases (0–${facts.databases - 1})`, field);
  }
}

/** Throws VALIDATION when the load must not start on this server. */
export function refuseUnsafe(facts: ServerFacts, plan: PreflightPlan): void {
  if (facts.mode === 'sentinel') {
    refuse(`${plan.address} is a Sentinel, not a data node: load into the master it monitors`);
  }
  if (facts.role === 'slave') {
    // A replica refuses writes (READONLY) or, when writable, drops them at the next resync.
    refuse(`${plan.address} is a replica${facts.master ? ` of ${facts.master}` : ''}: load into its master`);
  }
  if (plan.mode === 'swap') {
    const why = swapUnavailableReason(facts.version, facts.mode);
    if (why !== undefined) {
      refuse(`Mode swap is not possible on ${plan.address}: ${why}. Use --mode flush or --mode merge instead`, 'mode');
    }
  }
  checkDb(facts, plan.targetDb, 'target', 'targetDb', plan.address);
  if (plan.stagingDb !== undefined) checkDb(facts, plan.stagingDb, 'staging', 'stagingDb', plan.address);
}

/** Memory the server will hold at the end of the load, before any old data is freed. */
function projectedUsed(facts: ServerFacts, plan: PreflightPlan, estimate: number): number {
  if (plan.mode !== 'flush') return facts.usedMemory + estimate;
  // flush frees the target first; its share of the dataset's memory is guessed from its share of keys.
  // The dataset, not used_memory: the server's own overhead (buffers, scripts, allocator) stays.
  let total = 0;
  for (const { keys } of facts.keyspace.values()) total += keys;
  const targetKeys = facts.keyspace.get(plan.targetDb)?.keys ?? 0;
  const dataset = facts.usedMemoryDataset > 0 ? Math.min(facts.usedMemoryDataset, facts.usedMemory) : facts.usedMemory;
  const freed = total === 0 ? 0 : (dataset * targetKeys) / total;
  return facts.usedMemory - freed + estimate;
}

export function preflightWarnings(facts: ServerFacts, plan: PreflightPlan): PreflightResult {
  const warnings: string[] = [];
  const estimate = estimateDatasetBytes(plan.inputBytes);
  if (facts.mode === 'cluster' && plan.routedBySlot !== true) {
    warnings.push(`${plan.address} runs in cluster mode: keys whose hash slot another node owns are refused with MOVED and counted as errors`);
  }
  if (facts.configRefused !== undefined) {
    warnings.push(
      `CONFIG is not available on ${plan.address} (${facts.configRefused}): automatic saves are left as configured, so a save may fork during the load`,
    );
  }
  if (estimate === undefined) return { warnings };

  const after = projectedUsed(facts, plan, estimate);
  if (facts.maxmemory > 0 && after > facts.maxmemory) {
    const room = Math.max(0, facts.maxmemory - facts.usedMemory);
    const policy = facts.maxmemoryPolicy === '' ? '' : ` (maxmemory-policy ${facts.maxmemoryPolicy})`;
    warnings.push(
      `The input (${formatBytes(estimate)}) may not fit: maxmemory is ${formatBytes(facts.maxmemory)} and ${formatBytes(facts.usedMemory)} is used, leaving ${formatBytes(room)}. ` +
        `Past the limit Redis evicts keys or refuses writes with OOM${policy}`,
    );
  }
  if (plan.mode === 'swap') {
    const limit = facts.maxmemory > 0 ? facts.maxmemory : facts.totalSystemMemory;
    if (limit > 0 && after > limit) {
      warnings.push(
        `Swap mode holds the old and the new dataset at once until FLUSHDB ASYNC frees the old one: about ${formatBytes(after)} against ${formatBytes(limit)} available`,
      );
    }
  }
  // A fork shares pages copy-on-write; every page the load writes while the child runs is copied,
  // so a background save or AOF rewrite during or right after the load can need up to twice the memory.
  const forks: string[] = [];
  if (facts.save !== undefined && facts.save !== '' && facts.configRefused !== undefined) forks.push('automatic saves');
  if (facts.save === undefined && facts.configRefused !== undefined) forks.push('automatic saves (if configured)');
  if (facts.aofEnabled || facts.appendonly === 'yes') forks.push('AOF rewrites');
  if (facts.bgsaveInProgress) forks.push('the background save running now');
  if (plan.bgsave) forks.push('the BGSAVE you asked for');
  if (forks.length > 0 && facts.totalSystemMemory > 0 && after * 2 > facts.totalSystemMemory) {
    warnings.push(
      `A fork for ${forks.join(', ')} shares memory copy-on-write and can double it while it runs: up to ${formatBytes(after * 2)} against ${formatBytes(facts.totalSystemMemory)} of system memory`,
    );
  }
  return { warnings, estimateBytes: estimate };
}

/**
 * Whether Redis may evict keys on this server: a maxmemory limit and a policy
 * other than noeviction (which refuses writes with OOM instead, counted by the
 * loader as error replies). allkeys-* evicts from every DB; volatile-* evicts
 * keys with a TTL from every DB.
 */
export function mayEvict(facts: Pick<ServerFacts, 'maxmemory' | 'maxmemoryPolicy'>): boolean {
  return facts.maxmemory > 0 && facts.maxmemoryPolicy !== '' && facts.maxmemoryPolicy !== 'noeviction';
}

/**
 * Refuses a load the estimate says will not fit under maxmemory when Redis
 * would evict to make room (any policy but noeviction): evictions pick keys of
 * any DB, so a swap or flush would lose keys of DBs it never writes and a
 * merge live keys, while the load itself looks fine. Under noeviction the
 * writes fail with OOM instead, which the loader counts as errors. The
 * estimate is rough (see estimateDatasetBytes), hence the override; the load
 * stops at the first eviction either way (EvictionWatch).
 */
export function refuseEviction(facts: ServerFacts, plan: PreflightPlan): void {
  const estimate = estimateDatasetBytes(plan.inputBytes);
  if (plan.allowEvictionRisk === true || estimate === undefined || !mayEvict(facts)) return;
  const after = projectedUsed(facts, plan, estimate);
  if (after <= facts.maxmemory) return;
  const room = Math.max(0, facts.maxmemory - facts.usedMemory);
  refuse(
    `The input (${formatBytes(estimate)}) may not fit on ${plan.address}: maxmemory is ${formatBytes(facts.maxmemory)} and ${formatBytes(facts.usedMemory)} is used, leaving ${formatBytes(room)}, ` +
      `and maxmemory-policy ${facts.maxmemoryPolicy} makes Redis evict keys of any DB to make room, live data included. ` +
      'Refused, nothing was written; free memory or raise maxmemory, or pass --allow-eviction-risk (on the page: "Start even if Redis may evict") to try anyway: the load stops at the first eviction',
    'allowEvictionRisk',
  );
}

/** Refusals first (throws VALIDATION), then the warnings. */
export function preflight(facts: ServerFacts, plan: PreflightPlan): PreflightResult {
  refuseUnsafe(facts, plan);
  refuseEviction(facts, plan);
  return preflightWarnings(facts, plan);
}

/**
 * Mid-load projection: memory grown so far, scaled to the whole input. Far
 * better than the input size, as it measures Redis' real per-key cost.
 * Undefined until 5% of the input is read (too noisy before).
 */
export function memoryProjection(usedAtStart: number, usedNow: number, bytesRead: number, bytesTotal: number | undefined): number | undefined {
  if (bytesTotal === undefined || bytesTotal <= 0 || bytesRead < bytesTotal * 0.05) return undefined;
  const grown = Math.max(0, usedNow - usedAtStart);
  return usedAtStart + (grown * bytesTotal) / bytesRead;
}
