import { AppError } from '../../../../app/errors';
import type { DemoDataOptions, DemoEvent, DemoReport } from '../../../../app/schemas/audience';
import { pipeLoad } from '../../resp/pipeWriter';
import { PipeStopped } from '../../resp/pipeStopped';
import type { RawConnection } from '../../resp/rawConnection';
import type { RawTarget } from '../../resp/rawTarget';
import { encodeCommand } from '../../resp/encodeCommand';
import { toAppError, type ErrorContext } from '../../pool/redisErrors';
import { RespPipe } from '../../resp/respPipe';
import { addDays } from '../days';
import { LayoutKeys } from '../layoutKeys';
import { demoBatches, type DemoCounts } from './demoBatches';
import type { FinalDemoEvent } from './demoJobs';

export type DemoSettings = Omit<DemoDataOptions, 'profileId' | 'db'> & { db: number };

/** `connect` opens a socket of the load's own on `options.db`; closed when the load ends. */
export interface DemoRun extends RawTarget {
  options: DemoSettings;
}

/** At most ten progress events a second (the pipe reports every 100 ms). */
const PROGRESS_EVERY_MS = 100;

/**
 * Writes the synthetic TV audience through the bulk-load pipe (raw RESP on a socket of its
 * own, replies counted as they stream back). A DB that already holds keys is refused unless
 * `overwrite`: demo keys are then replaced, every other key left alone.
 */
export async function loadDemo(run: DemoRun, emit: (e: DemoEvent) => void, signal: AbortSignal): Promise<FinalDemoEvent> {
  const o = run.options;
  const t0 = performance.now();
  const counts: DemoCounts = { keys: 0, commands: 0, bytes: 0 };
  let conn: RawConnection | null = null;
  const report = (): DemoReport => ({
    address: conn?.address ?? `${run.errorContext.host ?? '?'}:${run.errorContext.port ?? '?'}`,
    db: o.db,
    users: o.users,
    days: o.days,
    seed: o.seed,
    first: o.start,
    last: addDays(o.start, o.days - 1),
    layouts: o.layouts,
    ...counts,
    seconds: Math.round((performance.now() - t0) / 10) / 100,
  });
  try {
    conn = await run.connect();
    if (!o.overwrite) await refuseNonEmpty(conn, run.errorContext, o.db);
    emit({ kind: 'started', address: conn.address, db: o.db, users: o.users, days: o.days, layouts: o.layouts, total: o.users });
    let last = -Infinity;
    await pipeLoad(conn, demoBatches({ ...o, keys: new LayoutKeys(o.layout) }, counts), {
      file: 'demo-data',
      maxErrors: 0,
      signal,
      onProgress: (p) => {
        const now = performance.now();
        if (now - last < PROGRESS_EVERY_MS) return;
        last = now;
        const elapsedMs = Math.round(now - t0);
        emit({ kind: 'progress', done: p.records, total: o.users, commandsPerSec: Math.round((p.replies * 1000) / Math.max(1, elapsedMs)), elapsedMs });
      },
    });
    return { kind: 'done', report: report() };
  } catch (e) {
    if (e instanceof PipeStopped && e.stoppedBy === 'cancelled') return { kind: 'cancelled', report: report() };
    const err = e instanceof AppError ? e : toAppError(e, run.errorContext);
    return { kind: 'failed', error: err.toInfo() };
  } finally {
    await conn?.close();
  }
}

async function refuseNonEmpty(conn: RawConnection, ctx: ErrorContext, db: number): Promise<void> {
  const pipe = new RespPipe(conn, ctx, 'before the demo data was written; nothing was changed.');
  const [n] = await pipe.send(encodeCommand(['DBSIZE']), 1);
  // RespPipe listens on the socket for good: the pipe writer gets it to itself from here.
  conn.socket.removeAllListeners('data');
  conn.socket.removeAllListeners('close');
  if (typeof n === 'number' && n > 0) {
    throw new AppError(
      'CONFLICT',
      `db ${db} holds ${n} keys: demo data goes into an empty DB, or replace the demo keys there and leave the others (overwrite)`,
      'overwrite',
    );
  }
}
