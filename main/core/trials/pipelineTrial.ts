import { SWEEP_SIZES, type PipelineTrialOptions, type VariantName } from '../../../app/schemas/trials';
import { checkpoint, timed, type TrialContext } from './trialContext';
import { rate } from './trialRecorder';
import { SCRATCH_TTL_MS } from './scratch';
import { resp, TrialPipe } from './trialPipe';

export const PIPELINE_VARIANTS = ['plain', 'pipelined', 'multi', 'pipelinedMulti'] as const satisfies readonly VariantName[];
export type PipelineVariant = (typeof PIPELINE_VARIANTS)[number];

export interface SetPlan {
  n: number;
  batch: number;
  prefix: string;
}

const MULTI = resp(['MULTI']);
const EXEC = resp(['EXEC']);

const TTL = String(SCRATCH_TTL_MS);

/** SET number `i`: the same key, value and last-resort TTL whichever way it is sent. */
export function setCommand(prefix: string, i: number): string {
  return resp(['SET', `${prefix}key:${i}`, `value:${i}`, 'PX', TTL]);
}

function setsFrom(prefix: string, from: number, count: number): string {
  let out = '';
  for (let i = from; i < from + count; i++) out += setCommand(prefix, i);
  return out;
}

/**
 * N SETs one of four ways, over one socket of the trial's own:
 * - plain: each SET waits for its reply, one round trip each;
 * - pipelined: `batch` SETs written at once, then their replies awaited;
 * - multi: each SET in its own MULTI/EXEC, the three written at once (one round trip per SET, more work for the server);
 * - pipelinedMulti: `batch` SETs inside one MULTI/EXEC, written at once.
 * Every variant writes the same keys and values.
 */
export async function sendSets(pipe: TrialPipe, variant: PipelineVariant, plan: SetPlan, tick: (n: number) => void, signal: AbortSignal): Promise<void> {
  const { n, prefix } = plan;
  const batch = variant === 'plain' || variant === 'multi' ? 1 : plan.batch;
  const wrap = variant === 'multi' || variant === 'pipelinedMulti';
  for (let from = 0; from < n; from += batch) {
    checkpoint(signal);
    const count = Math.min(batch, n - from);
    const sets = count === 1 ? setCommand(prefix, from) : setsFrom(prefix, from, count);
    if (wrap) await pipe.send(MULTI + sets + EXEC, count + 2);
    else await pipe.send(sets, count);
    tick(count);
  }
}

/**
 * `n` SETs in transactions of `size`: plain sends MULTI, each SET and EXEC one
 * round trip at a time (each SET answers QUEUED), as a client without
 * pipelining does; pipelined writes the whole transaction at once.
 */
export async function sendTransactions(
  pipe: TrialPipe,
  mode: 'plain' | 'pipelined',
  size: number,
  plan: Omit<SetPlan, 'batch'>,
  tick: (n: number) => void,
  signal: AbortSignal,
): Promise<void> {
  const { n, prefix } = plan;
  for (let from = 0; from < n; from += size) {
    checkpoint(signal);
    const count = Math.min(size, n - from);
    if (mode === 'pipelined') {
      await pipe.send(MULTI + setsFrom(prefix, from, count) + EXEC, count + 2);
    } else {
      await pipe.send(MULTI, 1);
      for (let i = from; i < from + count; i++) await pipe.send(setCommand(prefix, i), 1);
      await pipe.send(EXEC, 1);
    }
    tick(count);
  }
}

/** Commands the pipeline trial counts in all, for progress. */
export function pipelineTotal(o: Pick<PipelineTrialOptions, 'n' | 'sweep' | 'sweepN'>): number {
  return PIPELINE_VARIANTS.length * o.n + (o.sweep ? 2 * SWEEP_SIZES.length * o.sweepN : 0);
}

/** The four variants, then the transaction-size sweep, each from an empty scratch space. */
export async function pipelineTrial(ctx: TrialContext, o: Omit<PipelineTrialOptions, 'profileId'> & { db: number }): Promise<void> {
  const pipe = new TrialPipe(await ctx.connector.raw(o.db, ctx.name), ctx.errorContext);
  try {
    for (const variant of PIPELINE_VARIANTS) {
      const seconds = await timed(ctx, variant, (tick) => sendSets(pipe, variant, { n: o.n, batch: o.batch, prefix: ctx.prefix }, tick, ctx.signal));
      ctx.recorder.variant({ variant, ops: o.n, seconds, keys: await ctx.clean(o.db), errors: 0 });
    }
    if (!o.sweep) return;
    for (const size of SWEEP_SIZES) {
      const figures = async (mode: 'plain' | 'pipelined') => {
        const seconds = await timed(ctx, `sweep:${size}:${mode}`, (tick) =>
          sendTransactions(pipe, mode, size, { n: o.sweepN, prefix: ctx.prefix }, tick, ctx.signal),
        );
        await ctx.clean(o.db);
        return { ops: o.sweepN, seconds, opsPerSec: rate(o.sweepN, seconds) };
      };
      const plain = await figures('plain');
      const pipelined = await figures('pipelined');
      ctx.recorder.point({ size, plain, pipelined, ratio: plain.opsPerSec > 0 ? pipelined.opsPerSec / plain.opsPerSec : 0 });
    }
  } finally {
    pipe.destroy();
  }
}
