import type { TrialLatency } from '../../../app/schemas/trials';
import type { TrialConnector } from './connector';
import { TrialPipe } from './trialPipe';
import type { ErrorContext } from '../pool/redisErrors';

/** Median of `count` PING round trips, in ms, after one to warm the connection up. */
export async function medianPingMs(pipe: TrialPipe, count: number): Promise<number> {
  await pipe.call('PING');
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await pipe.call('PING');
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** Enough PINGs for a steady median, but not a minute of them at a 1 s delay. */
function pingsFor(delayMs: number): number {
  return Math.max(3, Math.min(21, Math.floor(1000 / (2 * delayMs + 1))));
}

/**
 * What the proxy really adds: the median PING straight to the server (on `direct`)
 * against one through `proxied` (a connection the proxy carries).
 */
export async function measureLatency(
  direct: TrialPipe,
  proxied: TrialConnector,
  requestedMs: number,
  db: number,
  name: string,
  errorContext: ErrorContext,
): Promise<TrialLatency> {
  const count = pingsFor(requestedMs);
  const directRttMs = await medianPingMs(direct, count);
  const through = new TrialPipe(await proxied.raw(db, name), errorContext);
  try {
    const proxiedRttMs = await medianPingMs(through, count);
    return { requestedMs, directRttMs, proxiedRttMs, addedRttMs: Math.max(0, proxiedRttMs - directRttMs) };
  } finally {
    through.destroy();
  }
}
