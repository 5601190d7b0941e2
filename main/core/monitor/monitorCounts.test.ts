import { spawn } from 'node:child_process';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { closeAdmins, eventually, startRedis, type RedisProcess } from '../../../testing/redis';
import { MonitorHub, type LinesBatch } from './monitorHub';
import type { MonitorFilter } from './monitorFilter';
import { closeTargets, recorder, targetFor, type Recorded } from './monitorTestKit';

const servers: RedisProcess[] = [];
let hub: MonitorHub | undefined;

afterEach(() => hub?.shutdown());
afterAll(async () => {
  closeTargets();
  await closeAdmins();
  for (const s of servers) await s.stop();
});

/** redis-benchmark against `s`, to its end. */
function benchmark(s: RedisProcess, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('redis-benchmark', ['-h', s.host, '-p', String(s.port), '-q', ...args], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`redis-benchmark exited with ${code}`))));
  });
}

/** True once no viewer has been told anything new for 300 ms (the benchmark is over, the last tick sent). */
async function quiet(rs: Recorded[]): Promise<boolean> {
  let before = '';
  return eventually(async () => {
    const now = JSON.stringify(rs.map((r) => r.batches.length));
    const same = now === before;
    before = now;
    if (!same) await new Promise((res) => setTimeout(res, 300));
    return same;
  }, 10_000);
}

/** A fresh server and a hub watching it. */
async function hubOnNewServer(): Promise<{ s: RedisProcess; h: MonitorHub }> {
  const s = await startRedis();
  servers.push(s);
  const target = targetFor(s);
  hub = new MonitorHub({ resolve: () => Promise.resolve(target), clientListMs: 100 });
  return { s, h: hub };
}

const ALL: MonitorFilter = { sampleEvery: 1, hideOwn: true };

/** The identities every batch must satisfy, whatever the load (docs/pages.md, Monitor page: the counters). */
function addsUp(b: LinesBatch): boolean {
  return b.received === b.unparsed + b.filteredOut + b.matched && b.matched === b.delivered + b.dropped;
}

/** Lines handed over so far equal `delivered` at every batch: none lost between the counts and the lines. */
function deliveredMatchesLines(r: Recorded): boolean {
  let got = 0;
  for (const b of r.batches) {
    got += b.lines.length;
    if (got !== b.delivered) return false;
  }
  return true;
}

describe('MONITOR counters under a redis-benchmark firehose', () => {
  it('every batch adds up: received = unparsed + filtered out + matched, matched = delivered + dropped', async () => {
    const { s, h } = await hubOnNewServer();
    const everything = recorder();
    let calls = 0;
    const slowSets = recorder(() => ++calls % 3 !== 0); // a page whose link is congested two ticks in three
    const sampledGets = recorder();
    await h.watch('p', undefined, ALL, everything.viewer);
    await h.watch('p', undefined, { ...ALL, commands: ['SET'] }, slowSets.viewer);
    const n = 30_000;
    const load = benchmark(s, ['-t', 'set,get', '-n', String(n), '-r', '1000', '-d', '16', '-P', '16']);
    // A viewer that joins mid-stream counts from its own start, and still adds up.
    expect(await eventually(() => (everything.last()?.matched ?? 0) > 5_000, 20_000)).toBe(true);
    await h.watch('p', undefined, { ...ALL, commands: ['GET'], sampleEvery: 7 }, sampledGets.viewer);
    await load;

    // Every SET the benchmark ran was counted for the SET viewer: delivered or dropped.
    expect(await eventually(() => slowSets.last()?.matched === n, 10_000)).toBe(true);
    expect(await quiet([everything, slowSets, sampledGets])).toBe(true);

    for (const r of [everything, slowSets, sampledGets]) {
      expect(r.batches.filter((b) => !addsUp(b))).toEqual([]);
      expect(deliveredMatchesLines(r)).toBe(true);
    }
    const all = everything.last()!;
    expect(all.received).toBeGreaterThanOrEqual(2 * n);
    expect(all.matched).toBeGreaterThanOrEqual(2 * n);
    const sets = slowSets.last()!;
    expect(sets.received).toBeGreaterThanOrEqual(2 * n);
    expect(sets.dropped).toBeGreaterThan(0);
    expect(sets.filteredOut).toBe(sets.received - n - sets.unparsed);
    const gets = sampledGets.last()!;
    expect(gets.received).toBeLessThan(all.received);
    expect(gets.matched).toBeGreaterThan(0);
    expect(gets.matched).toBeLessThan(n / 7 + 1);
    // No batch tells more lines kept than lines the node sent, nor a count that goes back.
    for (const r of [everything, slowSets, sampledGets]) {
      for (let i = 1; i < r.batches.length; i++) {
        expect(r.batches[i]!.received).toBeGreaterThanOrEqual(r.batches[i - 1]!.received);
      }
    }
  }, 60_000);

  it('a filter that keeps nothing still tells what the node sent', async () => {
    const { s, h } = await hubOnNewServer();
    const none = recorder();
    await h.watch('p', undefined, { ...ALL, keyGlob: 'never:*' }, none.viewer);
    await benchmark(s, ['-t', 'set', '-n', '2000', '-P', '16']);
    expect(await eventually(() => (none.last()?.received ?? 0) >= 2000, 5_000)).toBe(true);
    const last = none.last()!;
    expect(last).toMatchObject({ matched: 0, delivered: 0, dropped: 0 });
    expect(last.filteredOut + last.unparsed).toBe(last.received);
  });
});
