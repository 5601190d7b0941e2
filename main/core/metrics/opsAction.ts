import { stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { Redis } from 'ioredis';
import { AppError } from '../../../app/errors';
import { forkJobRunning, forkJobsStarted } from '../info/forkJob';
import { infoNumber } from '../info/infoSnapshot';
import { parseInfo } from '../info/parseInfo';
import { toAppErrorFor } from '../pool/redisErrors';
import { readRefusal } from '../redis/refusal';
import { ACTION_COMMAND } from './actionSupport';
import { isLoopback } from './address';
import { withTimeout } from './nodeInfo';
import type { OpsAction, OpsActionRecord } from './types';

export interface OpsActionOptions {
  /** How often INFO persistence is read while waiting. Default 50 ms. */
  pollMs?: number;
  /** Aborting stops the wait (app shutdown); the save itself goes on in Redis. */
  signal?: AbortSignal;
  /** Give up waiting after this long. Default 1 h: a big dataset can take many minutes to save. */
  maxWaitMs?: number;
}

type Persistence = Record<string, string>;

/**
 * Redis runs one fork child at a time. BGSAVE during a save answers "Background
 * save already in progress", during an AOF rewrite "Another child process is
 * active (AOF?): can't BGSAVE right now"; BGREWRITEAOF during a rewrite says
 * "already in progress" (during a save it is scheduled instead, not refused).
 */
const BUSY = /already in progress|another child process is active|can't BGSAVE right now/i;

function childRunning(p: Persistence): boolean {
  return p['rdb_bgsave_in_progress'] === '1' || p['aof_rewrite_in_progress'] === '1' || p['module_fork_in_progress'] === '1';
}

class Waiter {
  private readonly deadline: number;

  constructor(
    private readonly redis: Redis,
    private readonly opts: OpsActionOptions,
  ) {
    this.deadline = Date.now() + (opts.maxWaitMs ?? 3_600_000);
  }

  async persistence(): Promise<Persistence> {
    try {
      const text = await withTimeout(this.redis.info('persistence'), 10_000, 'INFO persistence');
      return parseInfo(text)['persistence'] ?? {};
    } catch (err) {
      throw toAppErrorFor(this.redis, err);
    }
  }

  /** Read INFO persistence until `done` holds; returns that reading. */
  async until(done: (p: Persistence) => boolean): Promise<Persistence> {
    for (;;) {
      const p = await this.persistence();
      if (done(p)) return p;
      if (this.opts.signal?.aborted === true) throw new AppError('CANCELLED', 'Stopped waiting for the background job: the app is shutting down.');
      if (Date.now() > this.deadline) throw new AppError('TIMEOUT', 'The background job did not finish in time; it may still be running in Redis.');
      await new Promise((r) => setTimeout(r, this.opts.pollMs ?? 50));
    }
  }
}

/** RDB file size, only for a server on this machine whose file was written by this save. */
async function rdbSize(redis: Redis, address: string, startedAt: number): Promise<number | undefined> {
  if (!isLoopback(address)) return undefined;
  try {
    // CONFIG may be refused (ACL, renamed command): then the size is simply not known.
    const [, dir] = (await redis.call('CONFIG', 'GET', 'dir')) as string[];
    const [, file] = (await redis.call('CONFIG', 'GET', 'dbfilename')) as string[];
    if (dir === undefined || file === undefined || !isAbsolute(dir)) return undefined;
    const st = await stat(join(dir, file));
    // Redis writes a temp file and renames it over the old one: an older mtime is another save's file.
    return st.mtimeMs >= startedAt - 1_000 ? st.size : undefined;
  } catch {
    return undefined;
  }
}

function aofSize(p: Persistence): number | undefined {
  // Both fields exist only while AOF is on; after a rewrite the base file is the fresh one.
  const v = p['aof_base_size'] ?? p['aof_current_size'];
  return v === undefined ? undefined : infoNumber(v);
}

/**
 * BGSAVE or BGREWRITEAOF on one node, timed until the fork child is done.
 * When another save or rewrite is running, wait for it first, then start ours:
 * the point is a fresh file and its timing, not someone else's.
 */
export async function runOpsAction(redis: Redis, address: string, action: OpsAction, opts: OpsActionOptions = {}): Promise<OpsActionRecord> {
  const waiter = new Waiter(redis, opts);
  const command = ACTION_COMMAND[action];
  let before = forkJobsStarted(action, await waiter.persistence());
  for (let attempt = 1; ; attempt++) {
    try {
      await redis.call(command);
      break;
    } catch (err) {
      // A refusal goes up as the server said it, for the hub to read and remember as one.
      if (readRefusal(err, [command]) !== undefined) throw err;
      const busy = err instanceof Error && BUSY.test(err.message);
      if (!busy || attempt >= 10) throw toAppErrorFor(redis, err);
      before = forkJobsStarted(action, await waiter.until((p) => !childRunning(p)));
    }
  }
  const startedAt = Date.now();
  const final = await waiter.until((p) => !forkJobRunning(action, p, before));
  const seconds = (Date.now() - startedAt) / 1000;
  const status = (action === 'bgsave' ? final['rdb_last_bgsave_status'] : final['aof_last_bgrewrite_status']) ?? 'unknown';
  const sizeBytes = status !== 'ok' ? undefined : action === 'bgsave' ? await rdbSize(redis, address, startedAt) : aofSize(final);
  return { action, address, startedAt, seconds, status, ...(sizeBytes === undefined ? {} : { sizeBytes }) };
}
