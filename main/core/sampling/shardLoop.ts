import type { SamplingOptions } from '../../../app/schemas/sampling';
import type { KeySource } from './keySource';
import type { ProbeQueue } from './probeQueue';

/**
 * One shard's keys, batch by batch, into its probe queue until the source is
 * done or `stop` (a cancel, or another shard failing) ends the run. With
 * pauseMs the queue is drained before each rest, so the server really rests.
 */
export async function shardLoop(source: KeySource, queue: ProbeQueue, o: Pick<SamplingOptions, 'pauseMs'>, stop: AbortSignal): Promise<void> {
  while (!stop.aborted) {
    const keys = await source.next(o.pauseMs === 0);
    if (keys === null) break;
    await queue.push(keys);
    if (o.pauseMs > 0) {
      await queue.drain();
      await pause(o.pauseMs, stop);
    }
  }
  await queue.drain();
}

/** Resolves after `ms`, or at once when the run is stopped. */
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
