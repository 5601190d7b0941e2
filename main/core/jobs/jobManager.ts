import { randomBytes } from 'node:crypto';
import { AppError } from '../../../app/errors';
import { JobId } from '../../../app/schemas/common';
import { currentCaller, type JobOwner } from './jobOwner';

/** How a kind of job's events are kept for replay; the rest of the job machinery is shared. */
export interface JobKind<E, R> {
  /** Id prefix: `load` gives `load_xxxxxxxx`. */
  prefix: string;
  /** What NOT_FOUND calls it: "load", "sampling run". */
  noun: string;
  /**
   * Events only the newest of which matters to a late subscriber (progress, a partial
   * report) name a slot; the others are kept in order, up to a bound.
   */
  latestSlot(e: E): string | undefined;
  /** The event that ends the job (a report, done, cancelled, failed). */
  isFinal(e: E): boolean;
  /** The final event for what the runner resolved with. */
  finish(result: R): E;
  /**
   * What a runner that threw instead of reporting emits (a bug in it, not a Redis error).
   * It ends the job whatever isFinal says of it: a job whose runner is gone is over.
   */
  crashed(message: string): E;
}

interface Job<E> {
  id: JobId;
  target: string;
  /** Who started it (the call being served then); undefined when no call did. */
  owner: JobOwner | undefined;
  abort: AbortController;
  history: E[];
  latest: Map<string, E>;
  final: E | null;
  listeners: Set<JobListener<E>>;
}

/** `last`: the event ends the job (its report, its failure, a crash); nothing follows it. */
export type JobListener<E> = (e: E, last: boolean) => void;

export type JobRun<E, R> = (jobId: JobId, emit: (e: E) => void, signal: AbortSignal) => Promise<R>;

/** A job cancelled because of who started it. */
export interface OwnedCancel {
  jobId: JobId;
  target: string;
  owner: JobOwner;
  reason: string;
}

const MAX_HISTORY = 200;
const MAX_FINISHED = 20;

/**
 * Running and recent jobs of one kind. Each keeps a small replayable history so a
 * subscriber that arrives after `start` (or after a page reload) misses nothing that
 * matters: the ordered events (bounded), the newest of each "latest" slot, the final one.
 */
export class JobManager<E, R> {
  private readonly jobs = new Map<string, Job<E>>();

  constructor(private readonly kind: JobKind<E, R>) {}

  /** `run` resolves with what becomes the final event; if it emitted one already, that one stands. */
  start(target: string, run: JobRun<E, R>): JobId {
    const id = JobId.parse(`${this.kind.prefix}_${randomBytes(6).toString('base64url')}`);
    const job: Job<E> = {
      id,
      target,
      owner: currentCaller(),
      abort: new AbortController(),
      history: [],
      latest: new Map(),
      final: null,
      listeners: new Set(),
    };
    this.jobs.set(id, job);
    const emit = (e: E, last = this.kind.isFinal(e)) => {
      if (job.final !== null) return; // nothing follows the last word
      const slot = this.kind.latestSlot(e);
      if (last) job.final = e;
      else if (slot !== undefined) job.latest.set(slot, e);
      else if (job.history.length < MAX_HISTORY) job.history.push(e);
      for (const l of job.listeners) l(e, last);
    };
    run(id, (e) => emit(e), job.abort.signal)
      .then((result) => emit(this.kind.finish(result)))
      .catch((err: unknown) => emit(this.kind.crashed(err instanceof Error ? err.message : String(err)), true))
      .finally(() => this.prune());
    return id;
  }

  /** A job still running against the same target, if any. */
  runningOn(target: string): string | undefined {
    for (const j of this.jobs.values()) if (j.target === target && j.final === null) return j.id;
    return undefined;
  }

  subscribe(jobId: string, listener: JobListener<E>): () => void {
    const job = this.mustGet(jobId);
    for (const e of job.history) listener(e, false);
    for (const e of job.latest.values()) listener(e, false);
    if (job.final !== null) listener(job.final, true);
    job.listeners.add(listener);
    return () => job.listeners.delete(listener);
  }

  /** Who started a job (undefined when no call did: start-up, the CLI). */
  ownerOf(jobId: string): JobOwner | undefined {
    return this.mustGet(jobId).owner;
  }

  cancel(jobId: string): boolean {
    const job = this.mustGet(jobId);
    if (job.final !== null) return false;
    job.abort.abort();
    return true;
  }

  /**
   * Cancel every running job whose owner `refuse` gives a reason against (a user removed, or
   * demoted below the role the job needed); returns each with its reason, for the audit log.
   */
  cancelOwned(refuse: (owner: JobOwner) => string | undefined): OwnedCancel[] {
    const out: OwnedCancel[] = [];
    for (const j of this.jobs.values()) {
      if (j.final !== null || j.owner === undefined || j.abort.signal.aborted) continue;
      const reason = refuse(j.owner);
      if (reason === undefined) continue;
      j.abort.abort();
      out.push({ jobId: j.id, target: j.target, owner: j.owner, reason });
    }
    return out;
  }

  /** Cancel everything (shutdown); resolves when every job has reported or the time is up. */
  async cancelAll(timeoutMs = 10_000): Promise<void> {
    const running = [...this.jobs.values()].filter((j) => j.final === null);
    for (const j of running) j.abort.abort();
    const deadline = Date.now() + timeoutMs;
    while (running.some((j) => j.final === null) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  private mustGet(jobId: string): Job<E> {
    const job = this.jobs.get(jobId);
    if (!job) throw new AppError('NOT_FOUND', `No ${this.kind.noun} with id ${jobId}`, 'jobId');
    return job;
  }

  private prune(): void {
    const finished = [...this.jobs.values()].filter((j) => j.final !== null);
    for (const j of finished.slice(0, Math.max(0, finished.length - MAX_FINISHED))) {
      if (j.listeners.size === 0) this.jobs.delete(j.id);
    }
  }
}
