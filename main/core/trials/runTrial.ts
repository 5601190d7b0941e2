import { AppError } from '../../../app/errors';
import type { ProfileSpec } from '../../../app/schemas/connections';
import type { TrialEvent, TrialLatency, TrialOptions, TrialParams, TrialReport, VariantName } from '../../../app/schemas/trials';
import { openRawConnection } from '../resp/rawConnection';
import { toAppError, type ErrorContext } from '../pool/redisErrors';
import { privateConnector, proxiedSpec, type TrialConnector } from './connector';
import { startLatencyProxy, type LatencyProxy } from './latencyProxy';
import { LOAD_COMMANDS, loadTrial } from './loadTrial';
import { MULTIPLEX_VARIANTS, multiplexDbs, multiplexTrial } from './multiplexTrial';
import { PIPELINE_VARIANTS, pipelineTotal, pipelineTrial } from './pipelineTrial';
import { preflight } from './preflight';
import { measureLatency } from './roundTrip';
import { countScratch, removeScratch, scratchPrefix, sweepScratch } from './scratch';
import { checkpoint, type TrialContext } from './trialContext';
import type { FinalTrialEvent } from './trialJobs';
import { TrialPipe } from './trialPipe';
import { TrialProgress } from './trialProgress';
import { TrialRecorder } from './trialRecorder';

type Settings<T> = T extends unknown ? Omit<T, 'profileId' | 'db'> & { db: number } : never;
/** A trial's options with the DB settled (the profile's when the input left it out). */
export type TrialSettings = Settings<TrialOptions>;

export interface TrialRun {
  /** Names the connections, and the scratch prefix unless there is a hashTag: the job id. */
  runId: string;
  settings: TrialSettings;
  /** The server, reached straight for the checks and the cleanup: on a cluster, one master. */
  spec: ProfileSpec;
  /** On a cluster: the tag every scratch key carries, one the master `spec` serves the slot of (trialTarget). */
  hashTag?: string;
  /** How the trial's own connections reach it when there is no latency proxy. */
  connector: TrialConnector;
}

/** How long a cancelled run lets its commands in flight finish before dropping their connections. */
const CANCEL_GRACE_MS = 3_000;
/** After a cancel or a failure, a second cleanup pass this much later catches writes that were still on the wire. */
const SECOND_PASS_MS = 150;

interface Shape {
  dbs: number[];
  variants: VariantName[];
  baseline: VariantName | undefined;
  total: number;
  params: TrialParams;
}

function shapeOf(o: TrialSettings): Shape {
  switch (o.trial) {
    case 'pipeline':
      return {
        dbs: [o.db],
        variants: [...PIPELINE_VARIANTS],
        baseline: 'plain',
        total: pipelineTotal(o),
        params: { n: o.n, batch: o.batch, ...(o.sweep ? { sweepN: o.sweepN } : {}) },
      };
    case 'multiplex':
      return { dbs: multiplexDbs(o), variants: [...MULTIPLEX_VARIANTS], baseline: 'blocking', total: 3 * o.n, params: { n: o.n, batch: o.batch } };
    case 'load':
      return {
        dbs: [o.db],
        variants: [...LOAD_COMMANDS],
        baseline: undefined,
        total: 2 * o.n,
        params: { n: o.n, clients: o.clients, dataSize: o.dataSize, keyspace: o.keyspace },
      };
  }
}

function errorContextOf(spec: ProfileSpec): ErrorContext {
  const ctx: ErrorContext = { host: spec.host, port: spec.port };
  if (spec.password !== undefined) ctx.password = spec.password;
  return ctx;
}

/**
 * One trial: checks (a master, DBs that exist and hold no keys of their own
 * unless confirmed), the latency proxy when asked, the variants, and always the
 * removal of every scratch key, whether the run ends done, cancelled or failed.
 * Resolves with the final event (not emitted here).
 */
export async function runTrial(run: TrialRun, emit: (e: TrialEvent) => void, signal: AbortSignal): Promise<FinalTrialEvent> {
  const startedAt = performance.now();
  const o = run.settings;
  const shape = shapeOf(o);
  const prefix = run.hashTag === undefined ? scratchPrefix(run.runId) : scratchPrefix(run.hashTag, true);
  const name = `cacheboard:trial:${run.runId}`;
  const errorContext = errorContextOf(run.spec);
  const address = `${run.spec.host}:${run.spec.port}`;
  const recorder = new TrialRecorder(emit, shape.baseline);
  const live = new Set<{ destroy(): void }>();
  const onAbort = () => setTimeout(() => live.forEach((c) => c.destroy()), CANCEL_GRACE_MS).unref();
  signal.addEventListener('abort', onAbort, { once: true });

  let control: TrialPipe | undefined;
  let proxy: LatencyProxy | undefined;
  let proxied: TrialConnector | undefined;
  let latency: TrialLatency | undefined;
  let wrote = false;
  let end: Pick<FinalTrialEvent, 'kind'> & { error?: AppError };
  try {
    control = new TrialPipe(await openRawConnection(run.spec, 0, { name }), errorContext);
    const { othersKnown } = await preflight(control, {
      name,
      dbs: shape.dbs,
      confirmNonEmpty: o.confirmNonEmpty,
      dbField: (db) => (db === o.db ? 'db' : 'dbs'),
    });
    // No other trial is connected (preflight): what earlier ones left under the scratch root is a killed run's.
    for (const db of othersKnown ? shape.dbs : []) {
      const swept = await sweepScratch(control, db);
      if (swept > 0) recorder.warn(`Removed ${swept} scratch keys an earlier trial left in DB ${db} (it was stopped before its cleanup)`);
    }
    if (o.latencyMs !== undefined) {
      proxy = await startLatencyProxy(run.spec, o.latencyMs);
      proxied = privateConnector(proxiedSpec(run.spec, proxy));
      latency = await measureLatency(control, proxied, o.latencyMs, o.db, name, errorContext);
    }
    checkpoint(signal);
    emit({ kind: 'started', trial: o.trial, address, dbs: shape.dbs, variants: shape.variants, total: shape.total, ...(latency ? { latency } : {}) });
    wrote = true;
    const work = control;
    const progress = new TrialProgress(emit, shape.total);
    const ctx: TrialContext = {
      prefix,
      name,
      connector: tracking(proxied ?? run.connector, live),
      errorContext,
      signal,
      progress,
      recorder,
      clean: (db) => removeScratch(work, db, prefix),
      count: (db) => countScratch(work, db, prefix),
    };
    if (o.trial === 'pipeline') await pipelineTrial(ctx, o);
    else if (o.trial === 'multiplex') await multiplexTrial(ctx, o);
    else await loadTrial(ctx, o);
    progress.finish();
    end = { kind: 'done' };
  } catch (e) {
    // A cancel that had to drop connections fails the commands in flight: still a cancel.
    end = signal.aborted ? { kind: 'cancelled' } : { kind: 'failed', error: toAppError(e, errorContext) };
  } finally {
    signal.removeEventListener('abort', onAbort);
    // The proxy goes first: it drops whatever it still holds, so nothing lands after the cleanup.
    await proxy?.close();
    await proxied?.close();
  }

  if (wrote) {
    const leftover = await cleanup(run.spec, control, shape.dbs, prefix, name, errorContext, end.kind === 'done' ? 1 : 2);
    if (leftover !== undefined) {
      const first = end.error;
      end = { kind: 'failed', error: first ? new AppError(first.code, `${first.message} ${leftover.message}`, first.field) : leftover };
    }
  }
  control?.destroy();

  if (end.kind === 'failed') {
    const err = end.error ?? new AppError('INTERNAL', 'the trial failed');
    return { kind: 'failed', error: { code: err.code, message: err.message, ...(err.field === undefined ? {} : { field: err.field }) } };
  }
  const report: TrialReport = {
    trial: o.trial,
    address,
    dbs: shape.dbs,
    params: shape.params,
    ...(latency ? { latency } : {}),
    variants: recorder.variants,
    sweep: recorder.sweep,
    seconds: (performance.now() - startedAt) / 1000,
    warnings: recorder.warnings,
  };
  return { kind: end.kind, report };
}

/**
 * Remove the run's scratch keys from every DB it wrote to, on the control
 * connection, or on a fresh one if that one is gone. Undefined when done, else
 * the error that says what is left and how to remove it by hand.
 */
async function cleanup(
  spec: ProfileSpec,
  control: TrialPipe | undefined,
  dbs: readonly number[],
  prefix: string,
  name: string,
  errorContext: ErrorContext,
  passes: number,
): Promise<AppError | undefined> {
  const sweep = async (pipe: TrialPipe) => {
    for (let pass = 0; pass < passes; pass++) {
      if (pass > 0) await new Promise((r) => setTimeout(r, SECOND_PASS_MS));
      for (const db of dbs) await removeScratch(pipe, db, prefix);
    }
  };
  try {
    if (control === undefined) throw new Error('no control connection');
    await sweep(control);
    return undefined;
  } catch {
    // The control connection may have died with the run: one more try on a new one.
  }
  let fresh: TrialPipe | undefined;
  try {
    fresh = new TrialPipe(await openRawConnection(spec, 0, { name }), errorContext);
    await sweep(fresh);
    return undefined;
  } catch (e) {
    const why = toAppError(e, errorContext);
    return new AppError(
      why.code,
      `Could not remove the trial's scratch keys (${why.message}). Remove them with: redis-cli -n <db> --scan --pattern '${prefix}*' | xargs redis-cli -n <db> unlink (db ${dbs.join(', ')})`,
    );
  } finally {
    fresh?.destroy();
  }
}

/** The connector, remembering what it opened so a cancel can drop it after the grace period. */
function tracking(c: TrialConnector, live: Set<{ destroy(): void }>): TrialConnector {
  return {
    ...c,
    raw: async (db, name) => {
      const conn = await c.raw(db, name);
      live.add(conn);
      conn.socket.once('close', () => live.delete(conn));
      return conn;
    },
    dedicated: async (db) => {
      const own = await c.dedicated(db);
      const handle = { destroy: () => own.redis.disconnect() };
      live.add(handle);
      return {
        redis: own.redis,
        release: () => {
          live.delete(handle);
          return own.release();
        },
      };
    },
  };
}
