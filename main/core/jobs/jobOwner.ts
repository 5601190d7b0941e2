import { AsyncLocalStorage } from 'node:async_hooks';
import type { Role } from '../../../app/define';

/** Who started a job, and the role the call that started it needed. */
export interface JobOwner {
  user: string;
  role: Role;
}

/**
 * The caller of the call being served, for JobManager.start to record as a job's owner. Carried
 * by the async context rather than passed down, so that every job kind, whatever handler starts
 * it and however deep, is owned by whoever asked for it, and none can be forgotten: a job that
 * outlives its user's access (the user removed or demoted) is found and cancelled by owner.
 */
const caller = new AsyncLocalStorage<JobOwner>();

/** Runs `fn` (a call's handler) with `owner` as the owner of any job it starts. */
export function asCaller<T>(owner: JobOwner, fn: () => T): T {
  return caller.run(owner, fn);
}

/** The caller being served here; undefined outside a call (a job started at start-up, the CLI). */
export function currentCaller(): JobOwner | undefined {
  return caller.getStore();
}
