import type { Redis } from 'ioredis';
import { AppError } from '../../../../app/errors';
import { parseClientList } from '../../redis/clientList';
import { commandRefusal } from './commandRefusal';

/**
 * One load per target at a time. Two loads into one DB would interleave their
 * keys, and in swap mode the second SWAPDB would swap the first one's data
 * back out. Within a process a registry says who holds what; across processes
 * (the desktop app, a cron CLI run, the web build) the server itself is the
 * registry: every connection of a load is named with CLIENT SETNAME, and
 * CLIENT LIST shows the names of all of them.
 */
export const BULK_NAME_PREFIX = 'cacheboard:bulk:';

/**
 * `cacheboard:bulk:<jobId>:db<target>`, plus `:staging<S>` on a swap's control
 * connection. (The pool names its own bulk connections `cacheboard:bulk:<profileId>`,
 * with no `:db` part: they do not parse as a load.)
 */
export function bulkConnectionName(jobId: string, targetDb: number, stagingDb?: number): string {
  return `${BULK_NAME_PREFIX}${jobId}:db${targetDb}${stagingDb === undefined ? '' : `:staging${stagingDb}`}`;
}

export function parseBulkConnectionName(name: string): { jobId: string; targetDb: number; stagingDb?: number } | undefined {
  const m = /^cacheboard:bulk:([^:\s]+):db(\d+)(?::staging(\d+))?$/.exec(name);
  if (!m) return undefined;
  const out: { jobId: string; targetDb: number; stagingDb?: number } = { jobId: m[1] as string, targetDb: Number(m[2]) };
  if (m[3] !== undefined) out.stagingDb = Number(m[3]);
  return out;
}

/** A load seen running on the same server, in this process or another. */
export interface OtherLoad {
  jobId: string;
  /** Client address from CLIENT LIST, or "this process". */
  addr: string;
  targetDb: number;
  stagingDb?: number;
}

interface Claim {
  jobId: string;
  targetDb: number;
  stagingDb?: number;
}

/** host:port -> loads of this process on that server. */
const claims = new Map<string, Claim[]>();

function dbsOf(l: { targetDb: number; stagingDb?: number }): number[] {
  return l.stagingDb === undefined ? [l.targetDb] : [l.targetDb, l.stagingDb];
}

/** Loads on the server other than `jobId`: this process's claims plus named connections in CLIENT LIST. */
export async function otherLoads(redis: Redis, where: { host: string; port: number; jobId: string }): Promise<{ loads: OtherLoad[]; warning?: string }> {
  const loads: OtherLoad[] = (claims.get(`${where.host}:${where.port}`) ?? [])
    .filter((c) => c.jobId !== where.jobId)
    .map((c) => ({ ...c, addr: 'this process' }));
  let list: string;
  try {
    list = String(await redis.client('LIST'));
  } catch (err) {
    const refused = commandRefusal(err);
    if (refused === undefined) throw err;
    return { loads, warning: `CLIENT LIST is not available (${refused}): loads from other processes cannot be detected` };
  }
  for (const { name, addr } of parseClientList(list).clients) {
    const parsed = name.startsWith(BULK_NAME_PREFIX) ? parseBulkConnectionName(name) : undefined;
    if (parsed === undefined || parsed.jobId === where.jobId) continue;
    if (loads.some((l) => l.jobId === parsed.jobId && l.stagingDb !== undefined)) continue;
    const i = loads.findIndex((l) => l.jobId === parsed.jobId);
    // A swap names its control connection with the staging DB too: keep the fullest entry.
    if (i >= 0) loads.splice(i, 1);
    loads.push({ ...parsed, addr });
  }
  return { loads };
}

/** DBs some other load is using as target or staging. */
export function busyDbs(loads: OtherLoad[]): Set<number> {
  return new Set(loads.flatMap(dbsOf));
}

function conflictError(other: OtherLoad, db: number, address: string): AppError {
  return new AppError('CONFLICT', `Load ${other.jobId} (from ${other.addr}) is already loading db ${db} on ${address}; wait for it or cancel it`);
}

function firstConflict(mine: Claim, loads: OtherLoad[]): { other: OtherLoad; db: number } | undefined {
  const wanted = dbsOf(mine);
  for (const other of loads) {
    const db = dbsOf(other).find((d) => wanted.includes(d));
    if (db !== undefined) return { other, db };
  }
  return undefined;
}

export interface TargetLock {
  /** Set when other processes' loads could not be checked. */
  warning?: string;
  /** The command whose refusal the warning names: the protection is then missing (LoadLog.unprotected). */
  missing?: string;
  release(): void;
}

/**
 * Claim target (and staging) DBs for a load. Announce, then check: the control
 * connection takes the load's name before CLIENT LIST is read, so of two
 * processes starting at once at least one sees the other (both may refuse,
 * never both proceed).
 */
export async function acquireTargetLock(
  control: Redis,
  opts: { jobId: string; host: string; port: number; targetDb: number; stagingDb?: number },
): Promise<TargetLock> {
  const address = `${opts.host}:${opts.port}`;
  const mine: Claim = { jobId: opts.jobId, targetDb: opts.targetDb };
  if (opts.stagingDb !== undefined) mine.stagingDb = opts.stagingDb;

  const local = (claims.get(address) ?? []).filter((c) => c.jobId !== opts.jobId);
  const clash = firstConflict(
    mine,
    local.map((c) => ({ ...c, addr: 'this process' })),
  );
  if (clash !== undefined) throw conflictError(clash.other, clash.db, address);
  claims.set(address, [...local, mine]);
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    const rest = (claims.get(address) ?? []).filter((c) => c !== mine);
    if (rest.length === 0) claims.delete(address);
    else claims.set(address, rest);
  };

  try {
    try {
      await control.client('SETNAME', bulkConnectionName(opts.jobId, opts.targetDb, opts.stagingDb));
    } catch (err) {
      const refused = commandRefusal(err);
      if (refused === undefined) throw err;
      return { warning: `CLIENT SETNAME is not available (${refused}): other processes cannot see this load`, missing: 'CLIENT SETNAME', release };
    }
    const { loads, warning } = await otherLoads(control, { host: opts.host, port: opts.port, jobId: opts.jobId });
    const remote = firstConflict(mine, loads);
    if (remote !== undefined) throw conflictError(remote.other, remote.db, address);
    return warning === undefined ? { release } : { warning, missing: 'CLIENT LIST', release };
  } catch (err) {
    release();
    throw err;
  }
}
