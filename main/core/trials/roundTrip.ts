import type { TrialLatency } from '../../../app/schemas/trials';
import type { TrialConnector } from './connector';
import { TrialPipe } from './trialPipe';
import type { ErrorContext } from '../pool/redisErrors';

/** One PING round trip on `pipe`, in ms. */
export async function pingMs(pipe: TrialPipe): Promise<number> {
  const t0 = performance.now();
  await pipe.call('PING');
  return performance.now() - t0;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Enough PINGs for a steady median, but not a minute of them at a 1 s delay. */
function pingsFor(delayMs: number): number {
  return Math.max(3, Math.min(21, Math.floor(1000 / (2 * delayMs + 1))));
}

/**
 * What the proxy really adds: the median PING straight to the server (on `direct`)
 * against one through `proxied` (a connection the proxy carries). The two are
 * taken in turn, one of each at a time, after one each to warm up: a burst of
 * load on a shared machine then slows both sides alike instead of one.
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
  const through = new TrialPipe(await proxied.raw(db, name), errorContext);
  try {
    await direct.call('PING');
    await through.call('PING');
    const straight: number[] = [];
    const proxiedTimes: number[] = [];
    for (let i = 0; i < count; i++) {
      straight.push(await pingMs(direct));
      proxiedTimes.push(await pingMs(through));
    }
    const directRttMs = median(straight);
    const proxiedRttMs = median(proxiedTimes);
    return { requestedMs, directRttMs, proxiedRttMs, addedRttMs: Math.max(0, proxiedRttMs - directRttMs) };
  } finally {
    through.destroy();
  }
}
