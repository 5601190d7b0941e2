import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import type { Pace } from '../../../../app/schemas/keyActions';
import { connectionFor } from '../../resp/rawTarget';
import { specFor } from '../../../../testing/profiles';
import { adminClient, clientsNamed, closeAdmins, eventually, useRedis, type RedisProcess } from '../../../../testing/redis';
import { startReplicaSet } from '../../../../testing/replication';
import { startPacer, type Pacer } from './pacer';

afterAll(closeAdmins);

/** Holds the server's one thread for `ms` (a Lua busy loop on the server's clock): a slow command, without DEBUG. */
const BUSY = `local s = redis.call('TIME') local stop = s[1] * 1e6 + s[2] + tonumber(ARGV[1]) * 1000
while true do local n = redis.call('TIME') if n[1] * 1e6 + n[2] >= stop then break end end return 1`;

const NAME = 'cacheboard:pace:test';
const pacerOn = (server: RedisProcess, pace: Pace, signal = new AbortController().signal): Promise<Pacer> =>
  startPacer(connectionFor(specFor(server), 0, NAME), pace, signal);

/** Batches of `work` run through the pacer's gate for `ms`; how many went, and the states seen. */
async function runFor(pacer: Pacer, ms: number, work: () => Promise<unknown>): Promise<{ batches: number; states: ReturnType<Pacer['state']>[] }> {
  const signal = new AbortController().signal;
  const states: ReturnType<Pacer['state']>[] = [];
  const end = Date.now() + ms;
  let batches = 0;
  while (Date.now() < end) {
    await pacer.gate(signal);
    await work();
    batches++;
    if (batches % 10 === 0) states.push(pacer.state());
  }
  states.push(pacer.state());
  return { batches, states };
}

describe('startPacer: latency', () => {
  const redis = useRedis();

  it('backs off when its own batches slow the server past the budget, and gate() rejects at once on abort', async () => {
    const admin = await adminClient(redis());
    // 20 ms a batch: far over the budget however loaded the box is when the idle p99 is taken
    // (with 5 ms batches a CI run whose idle p99 read high saw the pacer rightly let them through).
    const slowBatch = (): Promise<unknown> => admin.eval(BUSY, 0, '20');
    const full = await pacerOn(redis(), { maxLatencyMs: null, maxReplicaLagBytes: 1 << 30 });
    const unpaced = await runFor(full, 1_500, slowBatch);
    await full.close();

    const paced = await pacerOn(redis(), { maxLatencyMs: 2, maxReplicaLagBytes: 1 << 30 });
    try {
      const run = await runFor(paced, 1_500, slowBatch);
      // Each batch holds the server 20 ms: a probe landing in one is over a 2 ms budget, so fewer may go.
      expect(run.batches).toBeLessThan(unpaced.batches * 0.6);
      expect(Math.max(...run.states.map((s) => s.pauseMs))).toBeGreaterThan(20);
      expect(run.batches).toBeGreaterThan(0);
      const last = paced.state();
      expect(last.idleP99Ms).not.toBeNull();
      expect(last.recentP99Ms ?? 0).toBeGreaterThan(last.idleP99Ms ?? Infinity);
      expect(run.states.some((s) => s.paused?.reason === 'latency' && /PING p99 .* ms against .* ms idle \(budget \+2\.0 ms\)/.test(s.paused.detail))).toBe(
        true,
      );

      // Paused now (the last batches kept the pause long): an abort ends the wait, not the pause.
      expect(paced.state().pauseMs).toBeGreaterThan(5);
      const ac = new AbortController();
      const waiting = paced.gate(ac.signal);
      ac.abort();
      await expect(waiting).rejects.toMatchObject({ code: 'CANCELLED' });
    } finally {
      await paced.close();
    }
  });

  it("slowed by someone else's load, it eases off, keeps going, and comes back to full pace once the load ends", async () => {
    const other = await adminClient(redis());
    let loading = true;
    const load = (async () => {
      while (loading) {
        await other.eval(BUSY, 0, '6');
        await new Promise((r) => setTimeout(r, 15));
      }
    })();
    const pacer = await pacerOn(redis(), { maxLatencyMs: 2, maxReplicaLagBytes: 1 << 30 });
    try {
      const during = await runFor(pacer, 2_000, () => yieldToLoop());
      loading = false;
      await load;
      expect(during.states.some((s) => s.pauseMs > 0)).toBe(true);
      // Never stuck: the longest pause is 200 ms, so two seconds hold at least a few batches.
      expect(during.batches).toBeGreaterThan(5);
      const back = await eventually(
        async () => {
          await runFor(pacer, 200, () => yieldToLoop());
          return pacer.state().pauseMs === 0;
        },
        8_000,
        0,
      );
      expect(back).toBe(true);
    } finally {
      loading = false;
      await load;
      await pacer.close();
    }
  });

  it('at full speed never waits on latency, whatever the server does, and measures nothing', async () => {
    const other = await adminClient(redis());
    const busy = other.eval(BUSY, 0, '300');
    const pacer = await pacerOn(redis(), { maxLatencyMs: null, maxReplicaLagBytes: 1 << 30 });
    try {
      const signal = new AbortController().signal;
      // Through the server's 300 ms busy spell: gates resolve without a timer turn.
      for (let i = 0; i < 10_000; i++) await pacer.gate(signal);
      expect(pacer.state()).toEqual({ paused: null, idleP99Ms: null, recentP99Ms: null, pauseMs: 0 });
      expect(pacer.batchSize()).toBe(1000);
    } finally {
      await busy;
      await pacer.close();
    }
  });

  it('times PING where ACL refuses TIME, and refuses a budget it cannot measure where PING is refused too', async () => {
    const admin = await adminClient(redis());
    await admin.call('ACL', 'SETUSER', 'pace-notime', 'on', '>pw', '~*', '+@all', '-time');
    await admin.call('ACL', 'SETUSER', 'pace-noprobe', 'on', '>pw', '~*', '+@all', '-time', '-ping');
    const as = (username: string) => connectionFor(specFor(redis(), { username, password: 'pw' }), 0, NAME);
    const pacer = await startPacer(as('pace-notime'), { maxLatencyMs: 2, maxReplicaLagBytes: 1 << 30 }, new AbortController().signal);
    try {
      expect(pacer.state().idleP99Ms).toBeGreaterThan(0);
      expect(await eventually(() => (pacer.state().recentP99Ms ?? 0) > 0, 2_000)).toBe(true);
    } finally {
      await pacer.close();
    }
    await expect(startPacer(as('pace-noprobe'), { maxLatencyMs: 2, maxReplicaLagBytes: 1 << 30 }, new AbortController().signal)).rejects.toMatchObject({
      code: 'NOPERM',
      message: expect.stringContaining('run at full speed'),
    });
    const full = await startPacer(as('pace-noprobe'), { maxLatencyMs: null, maxReplicaLagBytes: 1 << 30 }, new AbortController().signal);
    await full.close();
  });

  it('asks for smaller batches under a tighter budget, and close() ends its probe connection', async () => {
    const admin = await adminClient(redis());
    const tight = await pacerOn(redis(), { maxLatencyMs: 0.5, maxReplicaLagBytes: 1 << 30 });
    const usual = await pacerOn(redis(), { maxLatencyMs: 2, maxReplicaLagBytes: 1 << 30 });
    expect(tight.batchSize()).toBeLessThan(usual.batchSize());
    expect(await clientsNamed(admin, NAME)).toHaveLength(2);
    await Promise.all([tight.close(), usual.close()]);
    expect(await eventually(async () => (await clientsNamed(admin, NAME)).length === 0, 2_000)).toBe(true);
  });
});

describe('startPacer: replica lag', () => {
  it('waits while a replica is further behind than the limit, says which and how far, and goes on once it caught up', async () => {
    const set = await startReplicaSet({ replicas: 1 });
    const replica = set.replicas[0] as RedisProcess;
    let master: Redis | undefined;
    let pacer: Pacer | undefined;
    try {
      master = await adminClient(set.master);
      pacer = await pacerOn(set.master, { maxLatencyMs: null, maxReplicaLagBytes: 64 * 1024 });
      await pacer.gate(new AbortController().signal);
      expect(pacer.state().paused).toBeNull();

      // A stopped replica acknowledges nothing more: what the master writes next is all lag.
      process.kill(replica.pid, 'SIGSTOP');
      const blob = 'x'.repeat(100 * 1024);
      for (let i = 0; i < 4; i++) await master.set(`pace:blob:${i}`, blob);
      const p = pacer;
      expect(await eventually(() => p.state().paused?.reason === 'replica-lag', 3_000)).toBe(true);
      expect(p.state().paused?.detail).toMatch(new RegExp(`^replica 127\\.0\\.0\\.1:${replica.port} is \\d+(\\.\\d)? KB behind \\(limit 64 KB\\)$`));

      let through = false;
      const waiting = p.gate(new AbortController().signal).then(() => (through = true));
      await new Promise((r) => setTimeout(r, 800));
      expect(through).toBe(false);

      process.kill(replica.pid, 'SIGCONT');
      await waiting;
      expect(p.state().paused).toBeNull();

      // A wait for lag ends on abort too.
      process.kill(replica.pid, 'SIGSTOP');
      for (let i = 0; i < 4; i++) await master.set(`pace:blob:${i}`, blob);
      expect(await eventually(() => p.state().paused?.reason === 'replica-lag', 3_000)).toBe(true);
      const ac = new AbortController();
      const aborted = p.gate(ac.signal);
      ac.abort();
      await expect(aborted).rejects.toMatchObject({ code: 'CANCELLED' });
    } finally {
      process.kill(replica.pid, 'SIGCONT');
      await pacer?.close();
      await set.stop();
    }
  });
});
