import { randomBytes } from 'node:crypto';
import { AppError } from '../../../app/errors';
import type { LoadEvent, LoadReport } from '../../../app/schemas/bulk';

type Listener = (e: LoadEvent) => void;

interface Job {
  id: string;
  target: string;
  abort: AbortController;
  /** Phases and warnings (bounded), the latest progress, and the report: enough to replay. */
  history: LoadEvent[];
  lastProgress: LoadEvent | null;
  report: LoadReport | null;
  listeners: Set<Listener>;
}

const MAX_HISTORY = 200;
const MAX_FINISHED = 20;

export type JobRunner = (jobId: string, emit: (e: LoadEvent) => void, signal: AbortSignal) => Promise<LoadReport>;

/**
 * Running and recent loads. Each job keeps a small replayable history so a
 * subscriber that arrives after `start` (or after a page reload) misses nothing
 * that matters: every phase, every warning, the latest progress, the report.
 */
export class BulkJobs {
  private readonly jobs = new Map<string, Job>();

  start(target: string, run: JobRunner): string {
    const id = `load_${randomBytes(6).toString('base64url')}`;
    const job: Job = {
      id,
      target,
      abort: new AbortController(),
      history: [],
      lastProgress: null,
      report: null,
      listeners: new Set(),
    };
    this.jobs.set(id, job);
    const emit = (e: LoadEvent) => {
      if (e.kind === 'progress') job.lastProgress = e;
      else if (e.kind === 'report') job.report = e.report;
      else if (job.history.length < MAX_HISTORY) job.history.push(e);
      for (const l of job.listeners) l(e);
    };
    run(id, emit, job.abort.signal)
      .then((report) => {
        if (!job.report) emit({ kind: 'report', report });
      })
      .catch((err: unknown) => {
        // runLoad reports its own failures; this only catches a bug in it.
        const message = err instanceof Error ? err.message : String(err);
        emit({ kind: 'warning', message: `load crashed: ${message}`, at: Date.now() });
      })
      .finally(() => this.prune());
    return id;
  }

  /** A load already running against the same target, if any (one per target). */
  runningOn(target: string): string | undefined {
    for (const j of this.jobs.values()) if (j.target === target && j.report === null) return j.id;
    return undefined;
  }

  subscribe(jobId: string, listener: Listener): () => void {
    const job = this.mustGet(jobId);
    for (const e of job.history) listener(e);
    if (job.lastProgress) listener(job.lastProgress);
    if (job.report) listener({ kind: 'report', report: job.report });
    job.listeners.add(listener);
    return () => job.listeners.delete(listener);
  }

  cancel(jobId: string): boolean {
    const job = this.mustGet(jobId);
    if (job.report !== null) return false;
    job.abort.abort();
    return true;
  }

  /** Cancel everything (shutdown); resolves when every job has reported. */
  async cancelAll(timeoutMs = 10_000): Promise<void> {
    const running = [...this.jobs.values()].filter((j) => j.report === null);
    for (const j of running) j.abort.abort();
    const deadline = Date.now() + timeoutMs;
    while (running.some((j) => j.report === null) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  private mustGet(jobId: string): Job {
    const job = this.jobs.get(jobId);
    if (!job) throw new AppError('NOT_FOUND', `No load with id ${jobId}`, 'jobId');
    return job;
  }

  private prune(): void {
    const finished = [...this.jobs.values()].filter((j) => j.report !== null);
    for (const j of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED))) {
      if (j.listeners.size === 0) this.jobs.delete(j.id);
    }
  }
}
