import type { Runtime } from '../runtime';
import { onStopSignals, signalExitCode, type StopSignal } from './interrupt';

/**
 * The whole stop's bound: the jobs' cleanup waits up to 10 s per kind of job, closing the
 * sockets and the pool takes the rest. A container's stop (10 s grace by default, then
 * SIGKILL) may cut it short: the save-config journal puts `save` back at the next start.
 */
export const STOP_TIMEOUT_MS = 20_000;

/**
 * `cacheboard serve` on SIGTERM (systemd, a container's stop), SIGINT or SIGHUP: cancel the
 * running jobs and wait for their cleanup while the pages are still connected (they see
 * each job end as cancelled), close the HTTP server and its sockets, then the runtime
 * (pool, embedded server), and exit 0. Past STOP_TIMEOUT_MS, or on an error, it exits 1;
 * a second signal leaves at once with 128 + its number.
 */
export function stopServeOnSignals(app: { close(): PromiseLike<unknown> }, runtime: Pick<Runtime, 'stopJobs' | 'close'>): () => void {
  const stop = async (signal: StopSignal) => {
    console.log(`\n${signal}: shutting down: cancelling running jobs and waiting for their cleanup…`);
    const timer = setTimeout(() => {
      console.error(`cacheboard: the shutdown took longer than ${STOP_TIMEOUT_MS / 1000} s; leaving without waiting further`);
      process.exit(1);
    }, STOP_TIMEOUT_MS);
    try {
      await runtime.stopJobs();
      await app.close();
      // Cancels anything a page started since stopJobs, then closes the pool.
      await runtime.close();
    } catch (e) {
      console.error(`cacheboard: error while shutting down: ${e instanceof Error ? e.message : String(e)}`);
      process.exit(1);
    }
    clearTimeout(timer);
    process.exit(0);
  };
  return onStopSignals(
    (s) => void stop(s),
    (s) => {
      console.error(
        `${s} again: leaving now, without waiting for the cleanup (a load's staging DB may keep its keys; its save config is put back from the journal at the next start)`,
      );
      process.exit(signalExitCode(s));
    },
  );
}
