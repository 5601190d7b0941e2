import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { NodeHistory } from '../../../app/schemas/metrics';
import { closeAdmins, eventually } from '../../../testing/redis';
import { startReplicaSet, type ReplicaSet } from '../../../testing/replication';
import { writeTraffic } from '../../../testing/traffic';
import type { Pool } from '../pool/pool';
import { MetricsHub } from './metricsHub';
import { poolFor, record } from './metricsTestKit';

/**
 * `cacheboard serve` records each profile's history whether or not a page watches,
 * so an Overview that opens later finds the last minutes; a gap says why it is one.
 */
let set: ReplicaSet;
let pool: Pool;
let hub: MetricsHub | undefined;
const addr = (p: { port: number }): string => `127.0.0.1:${p.port}`;

beforeAll(async () => {
  set = await startReplicaSet({ replicas: 1 });
  pool = poolFor({ m: set.master });
});
afterEach(async () => {
  await hub?.shutdown();
  hub = undefined;
});
afterAll(async () => {
  await pool?.shutdown();
  await closeAdmins();
  await set?.stop();
});

const historyOf = (h: MetricsHub, address: string): NodeHistory | undefined => {
  const w = record(h, 'm', { intervalMs: 1000 });
  const got = w.ofKind('history')[0]?.nodes.find((n) => n.address === address);
  w.stop();
  return got;
};

/** Entries of `h` within [from, to], with their values and gap causes. */
const within = (h: NodeHistory | undefined, from: number, to: number) =>
  (h?.at ?? []).flatMap((at, i) => (at >= from && at <= to ? [{ at, ops: h?.opsPerSec[i] ?? null, gap: h?.gaps?.[i] ?? null }] : []));

describe('history recorded while nobody watches', () => {
  it('is replayed to the first page that opens, with the traffic it missed', async () => {
    hub = new MetricsHub({ pool, record: { profiles: () => ['m'], syncMs: 100 } });
    const from = Date.now();
    // A load while no page is open.
    await writeTraffic(set.master, 3_500, 'rec:');
    const points = within(historyOf(hub, addr(set.master)), from, Date.now());
    // One poll a second for the 3.5 s nobody watched, with the load in it, and no gap.
    expect(points.length).toBeGreaterThanOrEqual(3);
    expect(points.some((p) => (p.ops ?? 0) > 100)).toBe(true);
    expect(points.every((p) => p.gap === null)).toBe(true);
  });

  it('stops for a profile left unwatched past the idle limit, and labels that stretch "not recorded", not "down"', async () => {
    hub = new MetricsHub({ pool, record: { profiles: () => ['m'], idleMs: 300, syncMs: 100 } });
    const w = record(hub, 'm', { intervalMs: 250 });
    await w.ticks(3);
    w.stop();
    const left = Date.now();
    // Past the idle limit nothing polls: wait, then come back.
    await new Promise((r) => setTimeout(r, 2_500));
    const back = record(hub, 'm', { intervalMs: 250 });
    await back.ticks(2);
    const h = back
      .ofKind('history')
      .at(-1)
      ?.nodes.find((n) => n.address === addr(set.master));
    back.stop();
    const gaps = within(h, left - 1_000, Date.now()).filter((p) => p.gap !== null);
    expect(gaps.map((g) => g.gap)).toContain('unrecorded');
    expect(gaps.map((g) => g.gap)).not.toContain('down');
    // Nothing was polled in the idle stretch: no entry between the marker and the return, but for the marker.
    const marker = gaps.find((g) => g.gap === 'unrecorded');
    expect(marker?.at).toBeLessThan(left + 1_000);
  });

  it('labels a node that stopped answering on an open connection "slow", never "down" nor "unrecorded"', async () => {
    hub = new MetricsHub({ pool, record: { profiles: () => ['m'], syncMs: 100 } });
    const replica = set.replicas[0]!;
    const w = record(hub, 'm', { intervalMs: 250 });
    await w.until('2 nodes', () => w.latest(addr(replica))?.up === true);
    w.stop();
    // A stopped process keeps its sockets open: from outside it is a server that does not answer in time.
    replica.kill('SIGSTOP');
    try {
      const h = () => historyOf(hub as MetricsHub, addr(replica));
      expect(await eventually(() => (h()?.gaps ?? []).includes('slow'), 8_000, 200)).toBe(true);
      expect(h()?.gaps ?? []).not.toContain('unrecorded');
      expect(h()?.gaps ?? []).not.toContain('down');
    } finally {
      replica.kill('SIGCONT');
    }
  });
});
