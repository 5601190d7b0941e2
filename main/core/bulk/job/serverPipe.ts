import type { Redis } from 'ioredis';
import { infoNumber } from '../../info/infoSnapshot';
import { pipeLoad } from '../../resp/pipeWriter';
import { openRawConnection } from '../../resp/rawConnection';
import type { CommandBatch, PipeProgress, PipeResult } from '../../resp/types';
import { throwIfCancelled } from './cancellation';
import type { ControlLink } from './controlLink';
import { EVICTING_IN_FLIGHT } from './evictionWatch';
import type { LoadLog } from './loadLog';
import type { RunLoadInput } from './runLoadInput';
import { formatBytes, mayEvict, memoryProjection } from './preflight';
import { ProgressReporter } from './progressReporter';
import { readReplicaLag } from './replicaLag';
import { readInfo, type ServerFacts } from './serverFacts';
import { bulkConnectionName } from './targetLock';

/** Where the pipe writes: the target, or swap's staging DB. */
export interface PipeTarget {
  db: number;
  staged: boolean;
  bytesTotal: number | undefined;
  /** Told just before the first command can leave: from here on `db` is written. */
  writing(): void;
}

/**
 * One server's fast pipe: a raw connection on the DB written, progress
 * events with the server's memory (and a warning when it heads past the
 * limit), and a way to stop what of ours the server has not yet run.
 */
export class ServerPipe {
  /** CLIENT ID of the raw data connection while it may still have commands on the server. */
  private rawClientId: number | undefined;
  private result: PipeResult | undefined;
  private reporter: ProgressReporter | undefined;

  constructor(
    private readonly input: RunLoadInput,
    private readonly log: LoadLog,
    private readonly link: ControlLink,
  ) {}

  /** The counts so far: the result, else the last progress. */
  get counts(): PipeProgress | PipeResult | undefined {
    return this.result ?? this.reporter?.last;
  }

  async run(redis: Redis, facts: ServerFacts, target: PipeTarget, batches: AsyncIterable<CommandBatch>, signal: AbortSignal): Promise<PipeResult> {
    const { input, log } = this;
    const { db, bytesTotal } = target;
    log.phase('loading', `Loading ${input.fileLabel} into ${target.staged ? 'staging DB' : 'DB'} ${db}`);
    // Without INFO (an ACL user without @dangerous) memory is unknown: the progress shows none rather than 0.
    const memory = facts.infoRefused === undefined;
    const usedAtStart = memory ? infoNumber((await readInfo(redis, 'memory'))['memory']?.['used_memory']) : 0;
    const limit = facts.maxmemory > 0 ? facts.maxmemory : facts.totalSystemMemory;
    let projectionWarned = false;
    const reporter = new ProgressReporter({
      emit: (e) => log.emit(e),
      bytesTotal,
      ...(memory
        ? { readMemory: async () => infoNumber((await readInfo(redis, 'memory'))['memory']?.['used_memory']), readReplicas: () => readReplicaLag(redis) }
        : { replicasUnknown: 'INFO refused' }),
      onMemory: (used, p) => {
        const projected = memoryProjection(usedAtStart, used, p.bytesRead, bytesTotal);
        if (projectionWarned || projected === undefined || limit <= 0 || projected <= limit) return;
        projectionWarned = true;
        const what = facts.maxmemory > 0 ? 'maxmemory' : 'system memory';
        log.warn(`At the rate memory grows, the load ends near ${formatBytes(projected)}, past the ${what} of ${formatBytes(limit)}`);
      },
    });
    this.reporter = reporter;
    target.writing();
    throwIfCancelled(signal);
    const conn = await openRawConnection(input.spec, db, { name: bulkConnectionName(input.jobId, input.targetDb) });
    this.rawClientId = conn.clientId;
    let ok = false;
    try {
      const result = await pipeLoad(conn, batches, {
        file: input.fileLabel,
        maxErrors: input.maxErrors,
        ...(mayEvict(facts) ? { maxInFlightCommands: EVICTING_IN_FLIGHT } : {}),
        signal,
        onProgress: (p: PipeProgress) => reporter.update(p),
      });
      ok = true;
      reporter.finish(result);
      this.result = result;
      log.loadSeconds = result.seconds;
      log.take(result);
      this.rawClientId = undefined; // every command answered: nothing of ours is left on the server
      return result;
    } finally {
      reporter.finish();
      await reporter.settleReplicas();
      const peaks = reporter.replicaPeaks;
      if (peaks !== undefined) log.report.replicaLag = peaks;
      if (ok) await conn.close();
      else conn.destroy();
    }
  }

  /**
   * Make sure nothing of the load still executes. A cancel or a lost socket
   * leaves the raw client's unread commands on the server; the pipe resets the
   * socket, but a reset and our next command travel separate connections, so
   * CLIENT KILL ID (which frees the client and drops its unread input at once,
   * Redis being single-threaded) settles it before staging is flushed.
   */
  async stop(): Promise<void> {
    const id = this.rawClientId;
    if (id === undefined) return;
    this.rawClientId = undefined;
    try {
      await this.link.onCleanupConnection((redis) => redis.client('KILL', 'ID', String(id)));
    } catch {
      // "No such client": it is gone already, which is what we want; an unreachable server runs nothing either.
    }
  }
}
