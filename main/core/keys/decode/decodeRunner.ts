import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { AppError } from '../../../../app/errors';
import type { DecodeJob, DecodeOutcome } from './decodeBytes';
import type { WorkerReply, WorkerRequest } from './decodeWorker';

/** Jobs waiting for the worker at most; past it a decode is refused rather than queued for long. */
const MAX_WAITING = 32;
/** An idle worker is let go after this long (it holds its own heap). */
const IDLE_MS = 30_000;
/** The worker's own heap: a decode that needs more ends with an error, not the server's OOM. */
const WORKER_HEAP_MB = 512;

interface Pending {
  id: number;
  job: DecodeJob;
  resolve: (o: DecodeOutcome) => void;
}

/**
 * Where the worker's code is. Built (dist/main/), every module is a file flat in one folder,
 * decodeWorker.js among them (an entry point of scripts/build-main.js). From the TypeScript
 * sources (vitest, tsx), the worker has no TypeScript loader of its own: a bootstrap imports
 * decodeWorker.ts through tsx's API.
 */
function spawnWorker(): Worker {
  const here = import.meta.url;
  const options = { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } };
  if (!here.endsWith('.ts')) return new Worker(new URL('./decodeWorker.js', here), options);
  const source = new URL('./decodeWorker.ts', here).href;
  const tsxApi = tsxEsmApi(here);
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((api) => api.tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`;
  return new Worker(bootstrap, { ...options, eval: true });
}

/** tsx's ESM API (its package exports' "import" file: require.resolve would give the CommonJS one). */
function tsxEsmApi(from: string): string {
  const pkgPath = createRequire(from).resolve('tsx/package.json');
  const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as { exports: Record<string, { import: { default: string } }> };
  const file = pkg.exports['./esm/api']?.import.default ?? './dist/esm/api/index.mjs';
  return new URL(file, pathToFileURL(pkgPath)).href;
}

/** What a job that did not finish reports: the format asked, nothing decoded, the reason. */
function failed(job: DecodeJob, error: string): DecodeOutcome {
  return { compression: null, format: job.as === 'auto' ? 'text' : job.as, decodedBytes: 0, text: '', truncated: false, error };
}

/**
 * One decode worker, one job at a time, each within its time limit: a job still running at
 * the limit has its worker terminated (the only way to stop a synchronous parser) and ends with
 * an error naming the limit; the next job gets a fresh worker.
 */
export class DecodeRunner {
  private worker: Worker | null = null;
  private ready = false;
  private current: (Pending & { timer: NodeJS.Timeout }) | null = null;
  private readonly waiting: Pending[] = [];
  private nextId = 1;
  private idle: NodeJS.Timeout | null = null;

  run(job: DecodeJob): Promise<DecodeOutcome> {
    if (this.waiting.length >= MAX_WAITING) {
      return Promise.reject(new AppError('RATE_LIMITED', `${MAX_WAITING} decodes are already waiting; try again in a moment`));
    }
    return new Promise((resolve) => {
      this.waiting.push({ id: this.nextId++, job, resolve });
      this.pump();
    });
  }

  /** Stops the worker; the running and waiting jobs end with an error. */
  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.ready = false;
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = null;
    const cur = this.current;
    this.current = null;
    if (cur !== null) {
      clearTimeout(cur.timer);
      cur.resolve(failed(cur.job, 'decoding was stopped (shutting down)'));
    }
    for (const p of this.waiting.splice(0)) p.resolve(failed(p.job, 'decoding was stopped (shutting down)'));
    if (w !== null) await w.terminate();
  }

  private pump(): void {
    if (this.current !== null) return;
    const next = this.waiting[0];
    if (next === undefined) return this.scheduleIdle();
    if (this.idle !== null) clearTimeout(this.idle);
    this.idle = null;
    const worker = this.worker ?? this.start();
    if (!this.ready) return; // 'ready' pumps again
    this.waiting.shift();
    const { limits } = next.job;
    const timer = setTimeout(() => {
      this.kill(`decoding took longer than ${limits.timeMs / 1000} s; the value may be hostile or too large`);
    }, limits.timeMs);
    this.current = { ...next, timer };
    // The bytes move to the worker (no copy): a copy of our own, so a pooled Buffer is never detached.
    const bytes = new Uint8Array(next.job.bytes);
    worker.postMessage({ id: next.id, job: { ...next.job, bytes } } satisfies WorkerRequest, [bytes.buffer]);
  }

  private start(): Worker {
    const w = spawnWorker();
    this.worker = w;
    this.ready = false;
    // An idle worker never keeps the process (the CLI) alive.
    w.unref();
    w.on('message', (m: WorkerReply) => {
      if (w !== this.worker) return;
      if ('ready' in m) {
        this.ready = true;
        return this.pump();
      }
      const cur = this.current;
      if (cur === null || cur.id !== m.id) return;
      this.finish('outcome' in m ? m.outcome : failed(cur.job, `decoding failed: ${m.error}`));
    });
    w.on('error', (e) => {
      if (w !== this.worker) return;
      const oom = (e as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      const oomText = `decoding needed more than its ${WORKER_HEAP_MB} MB of memory; the value may be hostile or too large`;
      this.drop(oom ? oomText : this.ready ? `decoding failed: ${e.message}` : e.message);
    });
    w.on('exit', () => {
      if (w !== this.worker) return;
      this.drop('the decode worker stopped');
    });
    return w;
  }

  /**
   * The worker is gone or going: the job it held fails, the next one gets a new worker. A
   * worker that died before it was ready would die again: the waiting jobs fail instead.
   */
  private drop(error: string): void {
    const started = this.ready;
    this.worker = null;
    this.ready = false;
    if (!started) for (const p of this.waiting.splice(0)) p.resolve(failed(p.job, `decoding could not start: ${error}`));
    this.finish(this.current === null ? null : failed(this.current.job, error));
  }

  private kill(error: string): void {
    const w = this.worker;
    this.drop(error);
    void w?.terminate();
  }

  private finish(outcome: DecodeOutcome | null): void {
    const cur = this.current;
    this.current = null;
    if (cur !== null) {
      clearTimeout(cur.timer);
      if (outcome !== null) cur.resolve(outcome);
    }
    this.pump();
  }

  private scheduleIdle(): void {
    if (this.worker === null || this.idle !== null) return;
    this.idle = setTimeout(() => {
      this.idle = null;
      if (this.current !== null || this.waiting.length > 0) return;
      const w = this.worker;
      this.worker = null;
      this.ready = false;
      void w?.terminate();
    }, IDLE_MS);
    this.idle.unref();
  }
}
