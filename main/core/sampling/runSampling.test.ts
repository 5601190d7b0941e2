import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SamplingEvent } from '../../../app/schemas/sampling';
import { freePort } from '../redisProcess/freePort';
import { adminClient, clientsNamed, closeAdmins, eventually, useRedis } from '../../../testing/redis';
import { fill, sampleOf } from './samplingTestKit';

const redis = useRedis();
afterAll(closeAdmins);
const KEYS = 20_000;
beforeAll(async () => {
  const admin = await adminClient(redis());
  await fill(admin, KEYS, (p, i) => p.set(`k:${i % 10}:${i}`, 'v'));
  await admin.call('ACL', 'SETUSER', 'nomemory', 'on', '>pw', '~*', '+@all', '-memory');
});

const progressOf = (events: SamplingEvent[]) => events.filter((e): e is Extract<SamplingEvent, { kind: 'progress' }> => e.kind === 'progress');

describe('a sampling run', () => {
  it('reports progress at most ten times a second and a partial report about once a second', async () => {
    // Paused batches stretch a census of 20,000 keys to about two seconds.
    const { events, final } = await sampleOf(redis(), { method: 'census', scanCount: 100, pauseMs: 10 });
    expect(final.kind).toBe('done');
    const progress = progressOf(events);
    // The last one is the closing tally, sent whatever the throttle says.
    const throttled = progress.slice(0, -1);
    for (let i = 1; i < throttled.length; i++) {
      expect((throttled[i]?.elapsedMs ?? 0) - (throttled[i - 1]?.elapsedMs ?? 0)).toBeGreaterThanOrEqual(100);
    }
    expect(progress.at(-1)).toMatchObject({ examined: KEYS, target: KEYS });
    const elapsed = progress.at(-1)?.elapsedMs ?? 0;
    expect(elapsed).toBeGreaterThan(1_000);
    const partials = events.filter((e) => e.kind === 'partial');
    expect(partials.length).toBeGreaterThanOrEqual(1);
    expect(partials.length).toBeLessThanOrEqual(Math.ceil(elapsed / 1_000));
    expect(events.at(-1)?.kind).not.toBe('done'); // the final event is returned, not emitted
  });

  it('rests pauseMs between batches', async () => {
    const t0 = Date.now();
    await sampleOf(redis(), { method: 'sample', samples: 1_000, pauseMs: 100 }, { tuning: { randomBatch: 250 } });
    // Four batches, a pause after each.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400);
  });

  it('stops on cancel with the report so far, and closes its connection', async () => {
    const abort = new AbortController();
    const admin = await adminClient(redis());
    const run = sampleOf(
      redis(),
      { method: 'census', scanCount: 100, pauseMs: 20 },
      { signal: abort.signal, onEvent: (e) => e.kind === 'progress' && abort.abort() },
    );
    expect(await eventually(async () => (await clientsNamed(admin, 'cacheboard:sampling:')).length === 1)).toBe(true);
    const { final } = await run;
    expect(final.kind).toBe('cancelled');
    if (final.kind !== 'cancelled') return;
    expect(final.report.keysExamined).toBeGreaterThan(0);
    expect(final.report.keysExamined).toBeLessThan(KEYS);
    expect(final.report.types[0]?.count).toBe(final.report.keysExamined);
    expect(await eventually(async () => (await clientsNamed(admin, 'cacheboard:sampling:')).length === 0)).toBe(true);
  });

  it('fails with NOPERM, naming the command, when the ACL user may not run MEMORY', async () => {
    const { final } = await sampleOf(redis(), { method: 'sample', samples: 10 }, { spec: { username: 'nomemory', password: 'pw' } });
    expect(final).toMatchObject({ kind: 'failed', error: { code: 'NOPERM' } });
    if (final.kind === 'failed') expect(final.error.message).toMatch(/memory/i);
  });

  it('fails with AUTH_FAILED on a wrong password and UNREACHABLE on a closed port', async () => {
    const wrong = await sampleOf(redis(), {}, { spec: { username: 'nomemory', password: 'nope' } });
    expect(wrong.final).toMatchObject({ kind: 'failed', error: { code: 'AUTH_FAILED' } });
    const closed = await sampleOf({ ...redis(), port: await freePort() }, {});
    expect(closed.final).toMatchObject({ kind: 'failed', error: { code: 'UNREACHABLE' } });
  });
});
