import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../app/errors';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { adminClient, clientsNamed, closeAdmins, eventually, useRedis } from '../../../testing/redis';
import { Pool } from './pool';

const redis = useRedis();
const pools: Pool[] = [];
function makePool(opts: { idleMs?: number } = {}): Pool {
  const pool = new Pool({ ...profileRegistry({ p: specFor(redis()) }), ...opts });
  pools.push(pool);
  return pool;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.shutdown()));
});
afterAll(closeAdmins);

describe('Pool shared connections', () => {
  it('reuses one connection per (profile, db), even for concurrent first calls', async () => {
    const pool = makePool();
    const all = await Promise.all([pool.shared('p'), pool.shared('p'), pool.shared('p', 0)]);
    expect(new Set(all).size).toBe(1);
    expect(await pool.shared('p')).toBe(all[0]);
    const admin = await adminClient(redis());
    expect(await clientsNamed(admin, 'cacheboard:shared:p')).toHaveLength(1);
  });

  it('keeps a separate connection per db, each selected once at connect', async () => {
    const pool = makePool();
    const db0 = await pool.shared('p');
    const db2 = await pool.shared('p', 2);
    expect(db2).not.toBe(db0);
    await db2.set('only-in-2', 'x');
    expect(await db0.get('only-in-2')).toBeNull();
    expect(await db2.get('only-in-2')).toBe('x');
    const admin = await adminClient(redis());
    const lines = await clientsNamed(admin, 'cacheboard:shared:p');
    expect(lines.map((l) => /\bdb=(\d+)/.exec(l)?.[1]).sort()).toEqual(['0', '2']);
  });

  it('refuses an unknown profile with NOT_FOUND', async () => {
    const pool = makePool();
    await expect(pool.shared('nope')).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('nope') });
  });

  it('gives monitoring its own connection with no offline queue', async () => {
    const pool = makePool();
    const shared = await pool.shared('p');
    const mon = await pool.monitoring('p');
    expect(mon).not.toBe(shared);
    expect(await pool.monitoring('p')).toBe(mon);
    expect(mon.options.enableOfflineQueue).toBe(false);
    const admin = await adminClient(redis());
    expect(await clientsNamed(admin, 'cacheboard:monitoring:p')).toHaveLength(1);
  });
});

describe('Pool dedicated connections', () => {
  it('opens a fresh connection per request that release() closes', async () => {
    const pool = makePool();
    const admin = await adminClient(redis());
    const a = await pool.dedicated('p', { purpose: 'bulk', db: 1 });
    const b = await pool.dedicated('p', { purpose: 'bulk' });
    expect(a.redis).not.toBe(b.redis);
    expect(await clientsNamed(admin, 'cacheboard:bulk:p')).toHaveLength(2);
    await a.release();
    await a.release(); // idempotent
    expect(await clientsNamed(admin, 'cacheboard:bulk:p')).toHaveLength(1);
    await b.release();
    expect(await clientsNamed(admin, 'cacheboard:bulk:p')).toHaveLength(0);
  });
});

describe('Pool closing', () => {
  it('closeProfile closes every connection of the profile, and the next call reconnects', async () => {
    const pool = makePool();
    const admin = await adminClient(redis());
    const first = await pool.shared('p');
    await pool.monitoring('p');
    await pool.dedicated('p', { purpose: 'blocking' });
    expect(await clientsNamed(admin, 'cacheboard:')).toHaveLength(3);
    await pool.closeProfile('p');
    expect(await clientsNamed(admin, 'cacheboard:')).toHaveLength(0);
    expect(pool.states()).toEqual([expect.objectContaining({ profileId: 'p', state: 'closed' })]);
    const again = await pool.shared('p');
    expect(again).not.toBe(first);
    expect(await again.ping()).toBe('PONG');
  });

  it('closeProfile lets commands already sent get their replies (QUIT, not a cut)', async () => {
    const pool = makePool();
    const conn = await pool.shared('p');
    const pending = [conn.set('close-k', 'v'), conn.incr('close-n'), conn.get('close-k')];
    await pool.closeProfile('p');
    expect(await Promise.all(pending)).toEqual(['OK', expect.any(Number), 'v']);
  });

  it('shutdown closes everything, leaves no sockets in this process, and is idempotent', async () => {
    const admin = await adminClient(redis());
    const sockets = (): number => process.getActiveResourcesInfo().filter((r) => r === 'TCPSocketWrap').length;
    const before = sockets();
    const pool = makePool();
    await pool.shared('p');
    await pool.shared('p', 1);
    await pool.monitoring('p');
    await pool.dedicated('p', { purpose: 'monitor' });
    expect(sockets()).toBe(before + 4);
    await Promise.all([pool.shutdown(), pool.shutdown()]);
    await pool.shutdown();
    expect(await clientsNamed(admin, 'cacheboard:')).toHaveLength(0);
    expect(await eventually(() => sockets() === before, 1_000)).toBe(true);
    const err = await pool.shared('p').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
  });
});

describe('Pool idle sweep', () => {
  it('quits a shared connection unused for idleMs and reconnects on the next call', async () => {
    const pool = makePool({ idleMs: 100 });
    const admin = await adminClient(redis());
    const states: string[] = [];
    pool.onState((s) => states.push(s.state));
    const first = await pool.shared('p');
    expect(await clientsNamed(admin, 'cacheboard:shared:p')).toHaveLength(1);
    expect(await eventually(async () => (await clientsNamed(admin, 'cacheboard:shared:p')).length === 0, 2_000)).toBe(true);
    // The server forgets the client when it answers QUIT, a moment before the client sees the close.
    expect(await eventually(() => first.status === 'end', 1_000)).toBe(true);
    expect(states.at(-1)).toBe('idle');
    const second = await pool.shared('p');
    expect(second).not.toBe(first);
    expect(await second.ping()).toBe('PONG');
  });

  it('keeps a connection that is used more often than idleMs', async () => {
    const pool = makePool({ idleMs: 300 });
    const first = await pool.shared('p');
    for (let i = 0; i < 8; i++) {
      await new Promise((r) => setTimeout(r, 75));
      expect(await pool.shared('p')).toBe(first);
    }
    expect(first.status).toBe('ready');
  });
});
