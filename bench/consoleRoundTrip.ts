import type { Redis } from 'ioredis';
import type { RpcClient } from '../app/rpcClient';
import { summarize } from '../main/core/audience/timings';

const WARMUP = 20;
/** The web build allows 50 calls a second per user: a gap keeps the bucket from emptying. */
const GAP_MS = 25;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function timed(call: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await call();
  return performance.now() - t0;
}

/**
 * `GET key` typed into the console, as the page sends it: console.run over the WebSocket,
 * from the send to the typed reply, `runs` times after a warm-up. Anchor: the same GET on
 * an ioredis connection straight to the server, in the same run.
 */
export async function consoleRoundTrip(rpc: RpcClient, admin: Redis, key: string, runs: number): Promise<Record<string, unknown>> {
  const web: number[] = [];
  const consoleId = `bench${Date.now().toString(36)}`;
  for (let i = 0; i < runs + WARMUP; i++) {
    const ms = await timed(async () => {
      const r = await rpc.invoke('console.run', { profileId: 'env', consoleId, runId: `run-${i}`, line: `GET ${key}` });
      if (r.status !== 'done' || r.replies[0]?.reply.t !== 'bulk') throw new Error(`GET ${key} answered ${JSON.stringify(r).slice(0, 200)}`);
    });
    if (i >= WARMUP) web.push(ms);
    await sleep(GAP_MS);
  }
  const direct: number[] = [];
  for (let i = 0; i < runs + WARMUP; i++) {
    const ms = await timed(() => admin.get(key));
    if (i >= WARMUP) direct.push(ms);
  }
  const w = summarize(web);
  const d = summarize(direct);
  return {
    runs,
    console_get_p50_ms: w.p50Ms,
    console_get_p95_ms: w.p95Ms,
    anchor: { name: 'GET on ioredis straight to redis-server', p50_ms: d.p50Ms, p95_ms: d.p95Ms },
    goal: 'p50 under 5 ms',
    goal_met: w.p50Ms < 5,
  };
}
