import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ConnectionState } from './types';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { eventually, startRedis, stopAllRedis } from '../../../testing/redis';
import { freePort } from '../redisProcess/freePort';
import { Pool } from './pool';

const pools: Pool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.shutdown()));
});
afterAll(stopAllRedis);

function record(pool: Pool): ConnectionState[] {
  const seen: ConnectionState[] = [];
  pool.onState((s) => seen.push(s));
  return seen;
}

describe('Pool connection state', () => {
  it('reports every known profile as idle before any use', async () => {
    const pool = new Pool(profileRegistry({ a: specFor({ port: 1 }), b: specFor({ port: 2 }) }));
    pools.push(pool);
    expect(pool.states().map((s) => [s.profileId, s.state])).toEqual([
      ['a', 'idle'],
      ['b', 'idle'],
    ]);
  });

  it('goes connecting -> ready on first use, then reconnecting with a reason when the server stops, and ready again when it returns', async () => {
    const proc = await startRedis();
    const pool = new Pool(profileRegistry({ p: specFor(proc) }));
    pools.push(pool);
    const seen = record(pool);
    await pool.shared('p');
    expect(seen.map((s) => s.state)).toEqual(['connecting', 'ready']);
    expect(seen.every((s) => s.profileId === 'p' && typeof s.at === 'number')).toBe(true);

    await proc.stop();
    const refused = `connection refused at 127.0.0.1:${proc.port}`;
    expect(await eventually(() => seen.some((s) => s.state === 'reconnecting' && s.detail === refused))).toBe(true);
    expect(seen.slice(2).every((s) => s.state === 'reconnecting')).toBe(true);
    expect(pool.states()[0]).toMatchObject({ state: 'reconnecting', detail: refused });

    // The backoff is capped, so a server back on the same port is picked up within seconds.
    await startRedis({ port: proc.port });
    expect(await eventually(() => seen.at(-1)?.state === 'ready', 8_000)).toBe(true);
    expect(await (await pool.shared('p')).ping()).toBe('PONG');
  });

  it('reports error with the reason when the first connect fails, and closed after closeProfile', async () => {
    const port = await freePort();
    const pool = new Pool(profileRegistry({ p: specFor({ port }) }));
    pools.push(pool);
    const seen = record(pool);
    await pool.shared('p').catch(() => undefined);
    expect(seen.map((s) => [s.state, s.detail])).toEqual([
      ['connecting', undefined],
      ['error', `connection refused at 127.0.0.1:${port}`],
    ]);
    await pool.closeProfile('p');
    expect(seen.at(-1)?.state).toBe('closed');
  });

  it('stops notifying a listener once it unsubscribes, and survives a throwing listener', async () => {
    const proc = await startRedis();
    const pool = new Pool(profileRegistry({ p: specFor(proc) }));
    pools.push(pool);
    pool.onState(() => {
      throw new Error('bad subscriber');
    });
    const seen: string[] = [];
    const off = pool.onState((s) => seen.push(s.state));
    await pool.shared('p');
    off();
    await pool.closeProfile('p');
    expect(seen).toEqual(['connecting', 'ready']);
  });
});
