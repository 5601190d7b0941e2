import type { z } from 'zod';
import type { OpsActionName } from '../../../app/schemas/metrics';

/** A background job Redis runs in a fork child: a snapshot (BGSAVE) or an AOF rewrite (the contract's ops actions). */
export type ForkJob = z.output<typeof OpsActionName>;

/** INFO persistence, as field -> value. */
type Persistence = Record<string, string>;

/** Redis 7 counts the saves and rewrites it starts (when it forks); older servers have no counter (undefined). */
export function forkJobsStarted(job: ForkJob, p: Persistence): number | undefined {
  const v = p[job === 'bgsave' ? 'rdb_saves' : 'aof_rewrites'];
  return v === undefined ? undefined : Number(v);
}

/**
 * Whether our job (the one started after `before` others) is still running. The
 * in-progress flag alone would also cover a job somebody else started right after
 * ours ended, and time theirs as ours: a counter past ours says ours is over.
 */
export function forkJobRunning(job: ForkJob, p: Persistence, before: number | undefined): boolean {
  const now = forkJobsStarted(job, p);
  if (before !== undefined && now !== undefined && now > before + 1) return false;
  return job === 'bgsave' ? p['rdb_bgsave_in_progress'] === '1' : p['aof_rewrite_in_progress'] === '1' || p['aof_rewrite_scheduled'] === '1';
}
