import { setTimeout as sleep } from 'node:timers/promises';
import type { StreamEvent } from '../../../../app/contract';
import { AppError } from '../../../../app/errors';
import type { Pace } from '../../../../app/schemas/keyActions';
import type { IndexState } from '../../../../app/schemas/keys';
import type { RawTarget } from '../../resp/rawTarget';
import { FULL_BATCH, startPacer, type Pacer } from '../pace/pacer';
import type { KeyIndex } from './keyIndex';
import { ScanConnection, type ScanReply } from './scanConnection';
import { ScanCount, readSlowlogLimit, type SlowlogLimit } from './scanCount';
import { ScanDedupe } from './scanDedupe';

type IndexEvent = StreamEvent<'keys.index.progress'>;

export interface BuildTuning {
  /**
   * Each node's pace (pacer.ts): its own PING probe holds the SCAN back while the node's PING
   * p99 is more than `maxLatencyMs` over idle (2 ms by default; null is full speed). The build
   * only reads, so replica lag is not watched (Infinity).
   */
  pace: Pace;
  /** The most keys one SCAN asks for (COUNT, also the pacer's full-speed batch); the pacer and the slowlog threshold may ask fewer. */
  count: number;
  /** A fixed pause between calls on one node, on top of the pacer's (tests: a build slow enough to cancel). */
  pauseMs: number;
  /** Progress at most this often. */
  progressMs: number;
  /** Keep each SCAN under the node's slowlog-log-slower-than (scanCount.ts); false only for tests showing what a fixed COUNT does. */
  fitSlowlog: boolean;
}

export const DEFAULT_BUILD_TUNING: BuildTuning = {
  pace: { maxLatencyMs: 2, maxReplicaLagBytes: Number.POSITIVE_INFINITY },
  count: FULL_BATCH,
  pauseMs: 0,
  progressMs: 200,
  fitSlowlog: true,
};

/** What the deep pass paces its rounds by: every node's pacer at once (the slowest sets the pace). */
export type DeepPace = Pick<Pacer, 'gate' | 'batchSize'>;

/** The deep pass (deepIndex.ts), run once the names of every key are in: type, TTL and memory per key. */
export type DeepPass = (index: KeyIndex, signal: AbortSignal, progress: () => void, pace: DeepPace) => Promise<void>;

/**
 * Build `index` by SCAN over every target (a cluster's masters at once, or one server), one
 * call in flight per node, over raw sockets of the build's own whose replies are read in place
 * (scanConnection.ts: no object per key). SCAN can return a key twice when the table is
 * resized mid-scan: every key's 64-bit hash is logged and repeats taken out (scanDedupe.ts, freed when
 * the build ends) so counts are exact for the keys present throughout. Emits progress at most
 * every `progressMs`; resolves with the final event (done, cancelled with what was scanned so
 * far, or failed); the index's state says the same.
 */
export async function buildIndex(
  targets: readonly RawTarget[],
  index: KeyIndex,
  emit: (e: IndexEvent) => void,
  signal: AbortSignal,
  tuning: BuildTuning = DEFAULT_BUILD_TUNING,
  /** The deep pass (deepIndex.ts), run once the names of every key are in: type, TTL and memory per key. */
  deep?: DeepPass,
): Promise<Extract<IndexEvent, { kind: 'done' | 'cancelled' | 'failed' }>> {
  // Filled by target index as each opens, so `finally` closes whatever did.
  const pipes: (ScanConnection | undefined)[] = [];
  const pacers: (Pacer | undefined)[] = [];
  const limits: SlowlogLimit[] = [];
  let lastProgress = 0;
  const progress = (force = false): void => {
    const now = Date.now();
    if (!force && now - lastProgress < tuning.progressMs) return;
    lastProgress = now;
    emit({ kind: 'progress', state: index.snapshot() });
  };
  try {
    // The pacers measure each node's idle PING while the scan connections open.
    await Promise.all(
      targets.flatMap((t, i) => [
        (async () => void (pipes[i] = new ScanConnection(await t.connect(), t.errorContext)))(),
        (async () => void (pacers[i] = await startPacer(t, tuning.pace, signal, { fullCount: tuning.count, keysPerMs: 500 })))(),
        (async () => void (limits[i] = tuning.fitSlowlog ? await readSlowlogLimit(t) : { us: null, assumed: false }))(),
      ]),
    );
    const nodes = targets.map((_, i) => ({
      pipe: pipes[i] as ScanConnection,
      pacer: pacers[i] as Pacer,
      count: new ScanCount(limits[i] as SlowlogLimit, tuning.count),
    }));
    index.state.scanCount = scanCountState(nodes.map((n) => n.count));
    const sizes = await Promise.all(nodes.map((n) => n.pipe.dbsize()));
    index.state.total = sizes.reduce((a, b) => a + b, 0);
    progress(true);
    const seen = new ScanDedupe(index);
    const finished = await Promise.all(
      nodes.map((n) =>
        scanNode(n.pipe, n.pacer, n.count, seen, signal, tuning, () => {
          index.state.scanCount = scanCountState(nodes.map((m) => m.count));
          progress();
        }),
      ),
    );
    index.state.scanCount = scanCountState(nodes.map((n) => n.count));
    seen.settle();
    index.state.complete = finished.every(Boolean);
    await Promise.all(nodes.map((n) => n.pipe.close().catch(() => n.pipe.destroy())));
    if (deep !== undefined && index.state.complete && !signal.aborted) await deep(index, signal, () => progress(), everyPacer(nodes.map((n) => n.pacer)));
    return ended(index, signal);
  } catch (e) {
    // A cancel that lands while a pacer measures or waits ends the build as cancelled, with what it has.
    if (signal.aborted) return ended(index, signal);
    const err = e instanceof AppError ? e : new AppError('INTERNAL', e instanceof Error ? e.message : String(e));
    index.state.status = 'failed';
    index.state.error = err.message;
    index.state.finishedAt = Date.now();
    index.state.seconds = (Date.now() - (index.state.startedAt ?? Date.now())) / 1000;
    return { kind: 'failed', error: { code: err.code, message: err.message } };
  } finally {
    await Promise.all([...pipes.map((p) => p?.close().catch(() => p.destroy())), ...pacers.map((p) => p?.close())]);
  }
}

function ended(index: KeyIndex, signal: AbortSignal): Extract<IndexEvent, { kind: 'done' | 'cancelled' }> {
  index.state.status = signal.aborted ? 'cancelled' : 'ready';
  index.state.finishedAt = Date.now();
  const state = index.snapshot();
  state.seconds = index.state.seconds = (Date.now() - (index.state.startedAt ?? Date.now())) / 1000;
  return signal.aborted ? { kind: 'cancelled', state } : { kind: 'done', state };
}

/**
 * One node's whole SCAN; true when its cursor came back to 0 (every key it holds was seen).
 * Still one call in flight: once the pacer lets the next SCAN go (at once, unless the node's
 * latency or the test tuning asks for a pause), it is sent before this page's keys are counted,
 * so the server walks the next slots while Node counts these.
 */
async function scanNode(
  pipe: ScanConnection,
  pacer: Pacer,
  scanCount: ScanCount,
  seen: ScanDedupe,
  signal: AbortSignal,
  tuning: BuildTuning,
  progress: () => void,
): Promise<boolean> {
  // The reply is boxed: an async function returning the bare promise would wait for the reply.
  const next = async (cursor: string): Promise<{ reply: Promise<ScanReply> } | null> => {
    try {
      await pacer.gate(signal);
      if (tuning.pauseMs > 0) await sleep(tuning.pauseMs, undefined, { signal });
    } catch (e) {
      if (signal.aborted) return null;
      throw e;
    }
    const count = scanCount.next(Math.min(tuning.count, pacer.batchSize()));
    const t0 = performance.now();
    // Timed when the reply is read, not when this loop gets to it (it counts the page before meanwhile).
    const reply = pipe.send(cursor, count).then((r) => {
      scanCount.observe(count, performance.now() - t0);
      return r;
    });
    return { reply };
  };
  const count = (buf: Buffer, start: number, end: number): void => seen.add(buf, start, end);
  let sent = await next('0');
  while (sent !== null) {
    const page: ScanReply = await sent.reply;
    const more: boolean = page.cursor !== '0' && !signal.aborted;
    sent = more ? await next(page.cursor) : null;
    page.visit(count);
    progress();
    if (!more) return page.cursor === '0';
  }
  return false;
}

/** What the state says of the SCAN COUNT: the lowest threshold of any node, whether assumed, the largest COUNT used. */
function scanCountState(counts: readonly ScanCount[]): IndexState['scanCount'] {
  const limits = counts.map((c) => c.limit.us).filter((us): us is number => us !== null);
  return {
    slowlogUs: limits.length === 0 ? null : Math.min(...limits),
    assumed: counts.some((c) => c.limit.assumed),
    largestCount: Math.max(0, ...counts.map((c) => c.largest)),
    slowestMs: Math.max(0, ...counts.map((c) => c.slowestMs)),
  };
}

/** The deep pass's pace: a round goes when every node's pacer lets it, at the smallest batch any asks for. */
function everyPacer(pacers: readonly Pacer[]): DeepPace {
  return {
    gate: async (signal) => void (await Promise.all(pacers.map((p) => p.gate(signal)))),
    batchSize: () => Math.min(...pacers.map((p) => p.batchSize())),
  };
}
