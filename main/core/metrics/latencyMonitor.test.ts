import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, closeAdmins, eventually, useRedis } from '../../../testing/redis';
import { renamedAway } from '../../../testing/restricted';
import { MetricsHub } from './metricsHub';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { Pool as PoolClass } from '../pool/pool';

const server = useRedis();
// CONFIG renamed away, as on a managed service.
const managed = useRedis(renamedAway());
let pool: PoolClass;
let hub: MetricsHub;
const addr = (): string => `127.0.0.1:${server().port}`;

async function threshold(): Promise<string | undefined> {
  const admin = await adminClient(server());
  const [, v] = (await admin.config('GET', 'latency-monitor-threshold')) as string[];
  return v;
}

beforeAll(async () => {
  await (await adminClient(server())).call('ACL', 'SETUSER', 'lat', 'on', '>pw', '~*', '&*', '+@all');
  pool = new PoolClass({ ...profileRegistry({ m: specFor(server()), r: specFor(managed()), u: specFor(server(), { username: 'lat', password: 'pw' }) }) });
  // One "minute" of the turn-on's duration is 40 ms here.
  hub = new MetricsHub({ pool, latencyMinuteMs: 40 });
});
afterAll(async () => {
  await hub.shutdown();
  await pool.shutdown();
  await closeAdmins();
});

describe('latency monitoring turned on for a while', () => {
  it('says off, turns it on, and puts the previous value back at the end', async () => {
    const admin = await adminClient(server());
    await admin.config('SET', 'latency-monitor-threshold', '0');
    expect(await hub.latency.status('m', 'm', addr())).toEqual({ thresholdMs: 0 });
    const on = await hub.latency.turnOn('m', addr(), 25, 10);
    expect(on).toMatchObject({ address: addr(), setMs: 25, previousMs: 0 });
    expect(await threshold()).toBe('25');
    expect(await hub.latency.status('m', 'm', addr())).toMatchObject({ thresholdMs: 25, timed: { setMs: 25, previousMs: 0 } });
    // A second turn-on on the same connection while one runs: one timer per connection.
    await expect(hub.latency.turnOn('m', addr(), 5, 10)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await eventually(async () => (await threshold()) === '0', 3_000)).toBe(true);
    const after = await hub.latency.status('m', 'm', addr());
    expect(after.timed).toBeUndefined();
    expect(after.ended).toMatchObject({ restored: true, foundMs: 25, previousMs: 0 });
  });

  it('leaves a value someone else set meanwhile, and says so', async () => {
    const admin = await adminClient(server());
    await admin.config('SET', 'latency-monitor-threshold', '3');
    await hub.latency.turnOn('m', addr(), 10, 60);
    expect(await threshold()).toBe('10');
    await admin.config('SET', 'latency-monitor-threshold', '77');
    const ended = await hub.latency.turnOff('m');
    expect(ended).toMatchObject({ restored: false, foundMs: 77, previousMs: 3 });
    expect(await threshold()).toBe('77');
  });

  it('turns off now: the previous value goes back before the end', async () => {
    const admin = await adminClient(server());
    await admin.config('SET', 'latency-monitor-threshold', '0');
    await hub.latency.turnOn('m', addr(), 10, 60);
    expect(await threshold()).toBe('10');
    await expect(hub.latency.turnOff('m')).resolves.toMatchObject({ restored: true });
    expect(await threshold()).toBe('0');
    await expect(hub.latency.turnOff('m')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('cannot tell where CONFIG GET is refused: no threshold, never 0', async () => {
    const a = `127.0.0.1:${managed().port}`;
    const status = await hub.latency.status('r', 'r', a);
    expect(status.thresholdMs).toBeUndefined();
    expect(status.restriction).toMatchObject({ command: expect.stringMatching(/^CONFIG/), effect: expect.stringContaining('cannot tell') });
  });

  it('says the value may still be on when it cannot be put back', async () => {
    const admin = await adminClient(server());
    await admin.config('SET', 'latency-monitor-threshold', '0');
    await hub.latency.turnOn('u', addr(), 10, 60);
    // The user loses CONFIG meanwhile: the end cannot read or set the value.
    await admin.call('ACL', 'SETUSER', 'lat', '-config');
    await expect(hub.latency.turnOff('u')).rejects.toBeDefined();
    expect(await threshold()).toBe('10');
    const status = await hub.latency.status('m', 'u', addr());
    expect(status.timed).toBeUndefined();
    expect(status.ended).toMatchObject({ restored: false, previousMs: 0, error: expect.stringMatching(/config/i) });
    await admin.config('SET', 'latency-monitor-threshold', '0');
  });
});
