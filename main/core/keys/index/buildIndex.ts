import type { StreamEvent } from '../../../../app/contract';
import { AppError } from '../../../../app/errors';
import { KeyHashSet } from '../../resp/keyHashSet';
import type { RawTarget } from '../../resp/rawTarget';
import type { KeyIndex } from './keyIndex';
import { ScanConnection, type ScanReply } from './scanConnection';

type IndexEvent = StreamEvent<'keys.index.progress'>;

export interface BuildTuning {
  /**
   * SCAN's COUNT: how many table slots one call walks. 1,000 keeps one call near 0.3-0.5 ms
   * on a 1M-key server, so a command queued behind it waits at most that long (the PING p99
   * rise the bench prints); larger COUNTs save round trips but lengthen that wait.
   */
  count: number;
  /** A pause between calls on one node (0: none; one SCAN in flight already leaves gaps). */
  pauseMs: number;
  /** Progress at most this often. */
  progressMs: number;
}

export const DEFAULT_BUILD_TUNING: BuildTuning = { count: 1000, pauseMs: 0, progressMs: 200 };

/**
 * Build `index` by SCAN over every target (a cluster's masters at once, or one server), one
 * call in flight per node, over raw sockets of the build's own whose replies are read in place
 * (scanConnection.ts: no object per key). SCAN can return a key twice when the table is
 * resized mid-scan: every key's 64-bit hash is kept (KeyHashSet, ~16 bytes a key, freed when
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
): Promise<Extract<IndexEvent, { kind: 'done' | 'cancelled' | 'failed' }>> {
  const pipes: ScanConnection[] = [];
  let lastProgress = 0;
  const progress = (force = false): void => {
    const now = Date.now();
    if (!force && now - lastProgress < tuning.progressMs) return;
    lastProgress = now;
    emit({ kind: 'progress', state: index.snapshot() });
  };
  try {
    for (const t of targets) pipes.push(new ScanConnection(await t.connect(), t.errorContext));
    const sizes = await Promise.all(pipes.map((p) => p.dbsize()));
    index.state.total = sizes.reduce((a, b) => a + b, 0);
    progress(true);
    const seen = new KeyHashSet(Math.min(2 * index.state.total + 1024, 1 << 22));
    const finished = await Promise.all(pipes.map((p) => scanNode(p, index, seen, signal, tuning, () => progress())));
    index.state.complete = finished.every(Boolean);
    index.state.status = signal.aborted ? 'cancelled' : 'ready';
    const state = index.snapshot();
    state.seconds = index.state.seconds = (Date.now() - (index.state.startedAt ?? Date.now())) / 1000;
    return signal.aborted ? { kind: 'cancelled', state } : { kind: 'done', state };
  } catch (e) {
    const err = e instanceof AppError ? e : new AppError('INTERNAL', e instanceof Error ? e.message : String(e));
    index.state.status = 'failed';
    index.state.error = err.message;
    index.state.seconds = (Date.now() - (index.state.startedAt ?? Date.now())) / 1000;
    return { kind: 'failed', error: { code: err.code, message: err.message } };
  } finally {
    await Promise.all(pipes.map((p) => p.close().catch(() => p.destroy())));
  }
}

/**
 * One node's whole SCAN; true when its cursor came back to 0 (every key it holds was seen).
 * Still one call in flight: the next SCAN is sent as soon as a reply names its cursor, before
 * this page's keys are counted, so the server walks the next slots while Node counts these
 * (unless a pause between calls is asked for).
 */
async function scanNode(pipe: ScanConnection, index: KeyIndex, seen: KeyHashSet, signal: AbortSignal, tuning: BuildTuning, progress: () => void): Promise<boolean> {
  const scan = (cursor: string) => pipe.send(cursor, tuning.count);
  const count = (buf: Buffer, start: number, end: number): void => {
    if (seen.add(buf, start, end)) index.add(buf, start, end);
  };
  let pending: Promise<ScanReply> | null = scan('0');
  while (pending !== null) {
    const page: ScanReply = await pending;
    const more: boolean = page.cursor !== '0' && !signal.aborted;
    pending = more && tuning.pauseMs === 0 ? scan(page.cursor) : null;
    page.visit(count);
    progress();
    if (!more) return page.cursor === '0';
    if (pending === null) {
      await new Promise((r) => setTimeout(r, tuning.pauseMs));
      if (signal.aborted) return false;
      pending = scan(page.cursor);
    }
  }
  return false;
}
