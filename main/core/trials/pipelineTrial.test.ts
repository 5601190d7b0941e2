import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SWEEP_SIZES } from '../../../app/schemas/trials';
import { specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, useRedis } from '../../../testing/redis';
import { openRawConnection } from '../resp/rawConnection';
import { PIPELINE_VARIANTS, pipelineTotal, sendSets, sendTransactions } from './pipelineTrial';
import { SCRATCH_TTL_MS } from './scratch';
import { reportOf, scratchKeysIn, settingsOf, trialOn } from './trialTestKit';
import { TrialPipe } from './trialPipe';

const redis = useRedis();
let admin: Redis;
beforeAll(async () => {
  admin = await adminClient(redis());
});
afterAll(closeAdmins);

/** Every key of db 0 with its value, sorted: what a way of sending left behind. */
async function contents(): Promise<[string, string | null][]> {
  const keys = (await scratchKeysIn(admin, 0)).sort();
  const values = keys.length > 0 ? await admin.mget(keys) : [];
  return keys.map((k, i) => [k, values[i] ?? null]);
}

describe('pipeline trial', () => {
  it('the four variants, and a transaction sent plain or pipelined, leave the same keys and values', async () => {
    const spec = specFor(redis());
    const pipe = new TrialPipe(await openRawConnection(spec, 0, { name: 'cacheboard:trial:state' }), { host: spec.host, port: spec.port });
    const prefix = 'cacheboard:trial:state:';
    const never = new AbortController().signal;
    // 2,503 in batches of 100 and transactions of 7: both leave a short last one.
    const plan = { n: 2_503, batch: 100, prefix };
    const states: [string, string | null][][] = [];
    try {
      for (const variant of PIPELINE_VARIANTS) {
        await admin.flushdb();
        await sendSets(pipe, variant, plan, () => undefined, never);
        states.push(await contents());
      }
      for (const mode of ['plain', 'pipelined'] as const) {
        await admin.flushdb();
        await sendTransactions(pipe, mode, 7, plan, () => undefined, never);
        states.push(await contents());
      }
    } finally {
      pipe.destroy();
      await admin.flushdb();
    }
    expect(states[0]).toHaveLength(2_503);
    expect(states[0]).toContainEqual([`${prefix}key:2502`, 'value:2502']);
    for (const s of states.slice(1)) expect(s).toEqual(states[0]);
  });

  it('every scratch key carries a last-resort TTL, so a run killed before its cleanup leaks none for good', async () => {
    const spec = specFor(redis());
    const pipe = new TrialPipe(await openRawConnection(spec, 0, { name: 'cacheboard:trial:ttl' }), { host: spec.host, port: spec.port });
    const never = new AbortController().signal;
    try {
      await sendSets(pipe, 'pipelined', { n: 50, batch: 10, prefix: 'cacheboard:trial:ttl:' }, () => undefined, never);
      const keys = await scratchKeysIn(admin, 0);
      expect(keys).toHaveLength(50);
      const ttls = await Promise.all(keys.map((k) => admin.pttl(k)));
      expect(ttls.filter((t) => t <= 0 || t > SCRATCH_TTL_MS)).toEqual([]);
    } finally {
      pipe.destroy();
      await admin.flushdb();
    }
  });

  it('pipelined SETs run at least 3x faster than one round trip each on loopback, and nothing is left', async () => {
    const r = await trialOn(redis(), { trial: 'pipeline', n: 20_000, sweep: false });
    const report = reportOf(r);
    expect(report.variants.map((v) => v.variant)).toEqual([...PIPELINE_VARIANTS]);
    for (const v of report.variants) expect(v).toMatchObject({ ops: 20_000, keys: 20_000, errors: 0 });
    const ratio = Object.fromEntries(report.variants.map((v) => [v.variant, v.ratio]));
    expect(ratio['plain']).toBe(1);
    expect(ratio['pipelined']).toBeGreaterThanOrEqual(3);
    expect(ratio['pipelinedMulti']).toBeGreaterThanOrEqual(3);
    expect(report.sweep).toEqual([]);
    expect(await scratchKeysIn(admin, 0)).toEqual([]);
  });

  it('sweeps transaction sizes 1 to 100, plain against pipelined, and counts every command in its progress', async () => {
    const input = { trial: 'pipeline', n: 50, sweepN: 200 } as const;
    const r = await trialOn(redis(), input);
    const report = reportOf(r);
    expect(report.params).toEqual({ n: 50, batch: 1_000, sweepN: 200 });
    expect(report.sweep.map((p) => p.size)).toEqual([...SWEEP_SIZES]);
    for (const p of report.sweep) {
      expect(p.plain.ops).toBe(200);
      expect(p.pipelined.ops).toBe(200);
      expect(p.ratio).toBeCloseTo(p.pipelined.opsPerSec / p.plain.opsPerSec, 6);
    }
    // The sweep points were streamed as they finished, in order, before the end.
    expect(r.events.filter((e) => e.kind === 'sweep').map((e) => (e.kind === 'sweep' ? e.point.size : 0))).toEqual([...SWEEP_SIZES]);
    const total = pipelineTotal(settingsOf(input) as Parameters<typeof pipelineTotal>[0]);
    expect(total).toBe(4 * 50 + 2 * SWEEP_SIZES.length * 200);
    expect(r.events[0]).toMatchObject({ kind: 'started', total });
    const progress = r.events.filter((e) => e.kind === 'progress');
    const dones = progress.map((e) => (e.kind === 'progress' ? e.done : 0));
    expect(dones).toEqual([...dones].sort((a, b) => a - b));
    expect(progress.at(-1)).toMatchObject({ done: total, total });
    expect(await scratchKeysIn(admin, 0)).toEqual([]);
  });
});
