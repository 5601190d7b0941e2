// Every job kind's manager in one table. It imports each job folder, so it sits at main/core/'s root:
// the shared jobs/ folder (the generic JobManager) imports no job folder, as lint enforces.
import type { StreamEvent } from '../../app/contract';
import { JOB_STREAMS, type JobStream } from '../../app/jobs';
import { AudienceJobs } from './audience/audienceJobs';
import { DemoJobs } from './audience/demo/demoJobs';
import { ExportJobs } from './export';
import { BulkJobs } from './bulk/jobManager';
import { KeyActionJobs } from './keys/actions/actionJobs';
import { KeysIndexJobs } from './keys/indexJobs';
import { SamplingJobs } from './sampling/samplingJobs';
import { TrialJobs } from './trials/trialJobs';
import type { JobListener, OwnedCancel } from './jobs/jobManager';
import type { JobOwner } from './jobs/jobOwner';

/** What the shared job plumbing (progress and cancel calls, shutdown) needs of a kind's manager. */
export interface FollowedJobs<E> {
  subscribe(jobId: string, listener: JobListener<E>): () => void;
  cancel(jobId: string): boolean;
  ownerOf(jobId: string): JobOwner | undefined;
  cancelAll(): Promise<void>;
  cancelOwned(refuse: (owner: JobOwner) => string | undefined): OwnedCancel[];
}

/** For each job kind of the contract (app/jobs.ts), a manager replaying that kind's stream events. */
export type JobManagers = { [N in JobStream as (typeof JOB_STREAMS)[N]['kind']]: FollowedJobs<StreamEvent<N>> };

/**
 * One manager per kind of long job. `satisfies` fails to compile when a kind of the contract
 * has no manager here, or one whose events are not its progress stream's.
 */
export function createJobs(opts: { audienceHistoryFile?: string } = {}) {
  return {
    bulk: new BulkJobs(),
    sampling: new SamplingJobs(),
    trials: new TrialJobs(),
    audience: new AudienceJobs(opts.audienceHistoryFile),
    demo: new DemoJobs(),
    keysIndex: new KeysIndexJobs(),
    keyActions: new KeyActionJobs(),
    export: new ExportJobs(),
  } satisfies JobManagers;
}

export type Jobs = ReturnType<typeof createJobs>;

/** Cancels every running job of every kind; resolves when each has reported (at most 10 s a kind). */
export async function cancelAllJobs(jobs: JobManagers): Promise<void> {
  await Promise.all(Object.values(jobs).map((j: FollowedJobs<unknown>) => j.cancelAll()));
}

/** Cancels, in every kind, the running jobs whose owner `refuse` gives a reason against; each with its kind. */
export function cancelOwnedJobs(jobs: JobManagers, refuse: (owner: JobOwner) => string | undefined): Array<OwnedCancel & { kind: string }> {
  return Object.entries(jobs).flatMap(([kind, j]: [string, FollowedJobs<unknown>]) => j.cancelOwned(refuse).map((c) => ({ ...c, kind })));
}

/** The manager of the job kind whose progress stream is N. */
export function jobsOf<N extends JobStream>(jobs: JobManagers, stream: N): FollowedJobs<StreamEvent<N>> {
  return jobs[JOB_STREAMS[stream].kind] as FollowedJobs<StreamEvent<N>>;
}
