import type { LoadTrialOptions } from '../../../app/schemas/trials';
import type { RawConnection } from '../resp/rawConnection';
import { sendRequests } from './loadRequests';
import { timed, type TrialContext } from './trialContext';

export const LOAD_COMMANDS = ['set', 'get'] as const;

/**
 * `redis-benchmark -c clients -n n -d dataSize -r keyspace -t set,get`: the SET
 * test, then the GET test (which reads what the SETs wrote), over the same
 * connections, one per client. Connecting is not timed.
 */
export async function loadTrial(ctx: TrialContext, o: Omit<LoadTrialOptions, 'profileId'> & { db: number }): Promise<void> {
  const opened = await Promise.allSettled(Array.from({ length: o.clients }, () => ctx.connector.raw(o.db, ctx.name)));
  const conns = opened.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  try {
    const failed = opened.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed !== undefined) throw failed.reason;
    for (const command of LOAD_COMMANDS) await loadStep(ctx, conns, command, o);
  } finally {
    for (const c of conns) c.destroy();
  }
}

async function loadStep(ctx: TrialContext, conns: RawConnection[], command: 'set' | 'get', o: Omit<LoadTrialOptions, 'profileId'> & { db: number }) {
  let figures: Awaited<ReturnType<typeof sendRequests>> | undefined;
  const plan = { command, n: o.n, dataSize: o.dataSize, keyspace: o.keyspace, prefix: ctx.prefix };
  const seconds = await timed(ctx, command, async (tick) => {
    figures = await sendRequests(conns, plan, () => tick(1), ctx.signal);
  });
  if (figures === undefined) return;
  ctx.recorder.variant({
    variant: command,
    ops: figures.requests,
    seconds,
    keys: command === 'set' ? await ctx.count(o.db) : 0,
    latency: figures.histogram.percentiles(),
    errors: figures.errors,
  });
  if (figures.firstError !== undefined) ctx.recorder.warn(`${command.toUpperCase()}: ${figures.errors} error replies, the first: ${figures.firstError}`);
}
