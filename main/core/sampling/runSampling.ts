import { AppError } from '../../../app/errors';
import type { SamplingEvent, SamplingOptions, SamplingReport } from '../../../app/schemas/sampling';
import type { ProfileSpec } from '../../../app/schemas/connections';
import { openRawConnection, type RawConnection } from '../bulk/pipe/rawConnection';
import { toAppError, type ErrorContext } from '../pool/redisErrors';
import { Aggregate } from './aggregate';
import { ScanSource } from './census';
import type { KeySource } from './keySource';
import { Prober } from './probe';
import { ProbeQueue } from './probeQueue';
import { RandomKeySource } from './randomSample';
import { ReplyError } from './replyReader';
import { RespPipe } from './respPipe';
import type { FinalSamplingEvent } from './samplingJobs';
import { SamplingThrottle } from './throttle';
import { DEFAULT_TUNING, type SamplingTuning } from './tuning';

export type SamplingSettings = Omit<SamplingOptions, 'profileId' | 'db'> & { db: number };

export interface SamplingRun {
  options: SamplingSettings;
  /** A socket of the run's own, authenticated and on `options.db` (closed when the run ends). */
  connect: () => Promise<RawConnection>;
  /** Host, port and password, so errors name the server and never echo the password. */
  errorContext: ErrorContext;
  tuning?: Partial<SamplingTuning>;
}

/** What a run needs to reach a profile's server: its own raw socket, named for CLIENT LIST. */
export function connectionFor(spec: ProfileSpec, db: number, name: string): Pick<SamplingRun, 'connect' | 'errorContext'> {
  const errorContext: ErrorContext = { host: spec.host, port: spec.port };
  if (spec.password !== undefined) errorContext.password = spec.password;
  return { connect: () => openRawConnection(spec, db, { name }), errorContext };
}

/** How long a cancelled run waits for the probes in flight before dropping the connection. */
const CANCEL_GRACE_MS = 2_000;

/**
 * One sample (RANDOMKEY) or census (SCAN) of one DB: `started`, progress at most
 * ten times a second, a partial report about once a second, then `done`, or
 * `cancelled` with what was examined, or `failed` with the AppError's code and
 * message. Resolves with that last event (it is not emitted here).
 */
export async function runSampling(
  run: SamplingRun,
  emit: (e: SamplingEvent) => void,
  signal: AbortSignal,
): Promise<FinalSamplingEvent> {
  const o = run.options;
  const tuning = { ...DEFAULT_TUNING, ...run.tuning };
  const startedAt = performance.now();
  const seconds = () => (performance.now() - startedAt) / 1000;
  let pipe: RespPipe | null = null;
  let report: (() => SamplingReport) | null = null;
  const onAbort = () => setTimeout(() => pipe?.destroy(), CANCEL_GRACE_MS).unref();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    pipe = new RespPipe(await run.connect(), run.errorContext);
    const dbsize = await dbsizeOf(pipe);
    const source: KeySource =
      o.method === 'census'
        ? new ScanSource(pipe, dbsize, o.scanCount, o.match)
        : new RandomKeySource(pipe, o.samples, tuning.randomBatch);
    const agg = new Aggregate();
    const prober = new Prober(pipe, agg, o.memorySamples);
    report = () =>
      agg.report({
        method: o.method,
        db: o.db,
        dbsize,
        seconds: seconds(),
        memorySamples: o.memorySamples,
        ...(o.match === undefined || o.method !== 'census' ? {} : { match: o.match }),
        warnings: [...source.warnings(), ...prober.warnings()],
      });
    emit({ kind: 'started', method: o.method, db: o.db, dbsize, target: source.target });
    const throttle = new SamplingThrottle(tuning, emit, () => agg.examined + agg.missing, source.target, report);
    const queue = new ProbeQueue(prober, tuning.groupSize, tuning.maxInFlight, () => throttle.tick());
    while (!signal.aborted) {
      const keys = await source.next(o.pauseMs === 0);
      if (keys === null) break;
      await queue.push(keys);
      if (o.pauseMs > 0) {
        await queue.drain();
        await pause(o.pauseMs, signal);
      }
    }
    await queue.drain();
    throttle.finish();
    return signal.aborted ? { kind: 'cancelled', report: report() } : { kind: 'done', report: report() };
  } catch (e) {
    // A cancel that had to drop the connection fails the probes in flight: still a cancel.
    if (signal.aborted && report !== null) return { kind: 'cancelled', report: report() };
    const err = toAppError(e, run.errorContext);
    return { kind: 'failed', error: { code: err.code, message: err.message } };
  } finally {
    signal.removeEventListener('abort', onAbort);
    if (pipe !== null) {
      if (signal.aborted) pipe.destroy();
      else await pipe.close();
    }
  }
}

async function dbsizeOf(pipe: RespPipe): Promise<number> {
  const [n] = await pipe.send(Buffer.from('*1\r\n$6\r\nDBSIZE\r\n'), 1);
  if (n instanceof ReplyError) throw pipe.errorOf(n);
  if (typeof n !== 'number') throw new AppError('INTERNAL', 'DBSIZE answered with something other than a number');
  return n;
}

/** Resolves after `ms`, or at once when the run is cancelled. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
