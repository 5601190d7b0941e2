import type { Redis } from 'ioredis';
import { forkJobRunning, forkJobsStarted } from '../../info/forkJob';
import { errorText } from './commandRefusal';
import { readInfo } from './serverFacts';
import { sleep } from './cancellation';

export interface BgsaveResult {
  seconds: number;
  /** rdb_last_bgsave_status: "ok" or "err". */
  status: string;
}

async function persistence(redis: Redis): Promise<Record<string, string>> {
  return (await readInfo(redis, 'persistence'))['persistence'] ?? {};
}

async function waitUntilIdle(redis: Redis, field: string, signal: AbortSignal, pollMs: number): Promise<void> {
  while ((await persistence(redis))[field] === '1') await sleep(pollMs, signal);
}

/**
 * BGSAVE and wait for it to finish. Redis runs one fork at a time: a save
 * already running ("Background save already in progress") holds the data of
 * before its fork, so wait for it, then start ours; an AOF rewrite in progress
 * refuses BGSAVE too, and is waited for the same way.
 */
export async function runBgsave(redis: Redis, signal: AbortSignal, pollMs = 100): Promise<BgsaveResult> {
  const started = Date.now();
  let before = forkJobsStarted('bgsave', await persistence(redis));
  for (let attempt = 0; ; attempt++) {
    try {
      await redis.bgsave();
      break;
    } catch (err) {
      const text = errorText(err);
      if (attempt >= 20) throw err;
      if (/already in progress/i.test(text)) await waitUntilIdle(redis, 'rdb_bgsave_in_progress', signal, pollMs);
      else if (/AOF log rewriting in progress/i.test(text)) await waitUntilIdle(redis, 'aof_rewrite_in_progress', signal, pollMs);
      else throw err;
      before = forkJobsStarted('bgsave', await persistence(redis));
    }
  }
  // The fork happens inside BGSAVE, so rdb_bgsave_in_progress is 1 from its reply on (and again for a
  // save somebody starts right after ours, which forkJobRunning tells apart by the counter).
  let info = await persistence(redis);
  while (forkJobRunning('bgsave', info, before)) {
    await sleep(pollMs, signal);
    info = await persistence(redis);
  }
  return { seconds: (Date.now() - started) / 1000, status: info['rdb_last_bgsave_status'] ?? 'unknown' };
}
