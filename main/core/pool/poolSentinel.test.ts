import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { parseHostPort } from '../../../app/hostPort';
import { profileRegistry, specFor } from '../../../testing/profiles';
import { adminClient, closeAdmins, eventually } from '../../../testing/redis';
import { useSentinel } from '../../../testing/sentinel';
import { openRawConnection } from '../resp/rawConnection';
import { Pool } from './pool';
import { currentMasterSpec, mastersNamed } from './sentinels';
import type { ConnectionState, ProfileSpec } from './types';

const set = useSentinel({ password: 'data-pw', sentinelPassword: 'sentinel-pw' });

function sentinelSpec(over: { masterName?: string; sentinelPassword?: string } = {}): ProfileSpec {
  const sentinels = set().sentinelAddresses.map((a) => {
    const at = parseHostPort(a, 26379);
    if ('error' in at) throw new Error(at.error);
    return at;
  });
  const first = sentinels[0] ?? { host: '127.0.0.1', port: 1 };
  return specFor(first, {
    name: 'ha',
    db: 3,
    password: 'data-pw',
    topology: {
      kind: 'sentinel',
      sentinels,
      masterName: over.masterName ?? set().masterName,
      sentinelPassword: over.sentinelPassword ?? 'sentinel-pw',
    },
  });
}

const pools: Pool[] = [];
function makePool(): Pool {
  const pool = new Pool(profileRegistry({ s: sentinelSpec() }));
  pools.push(pool);
  return pool;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.shutdown()));
});
afterAll(closeAdmins);

describe('Pool with a sentinel profile', () => {
  it("connects through the sentinels to the master, on the profile's DB", async () => {
    const pool = makePool();
    expect(pool.topology('s')).toBe('sentinel');
    const shared = await pool.shared('s');
    await shared.set('via-sentinel', 'yes');
    const master = await adminClient(set().master, { password: 'data-pw', db: 3 });
    expect(await master.get('via-sentinel')).toBe('yes');
  });

  it('closing a profile also ends its failover subscriptions on the sentinels', async () => {
    const pool = makePool();
    const shared = await pool.shared('s');
    await shared.ping();
    const watcher = await set().sentinelClient(0);
    try {
      const subscribed = async () =>
        String(await watcher.client('LIST'))
          .split('\n')
          .filter((l) => / sub=[1-9]/.test(l)).length;
      expect(await eventually(async () => (await subscribed()) > 0, 5_000, 50)).toBe(true);
      await pool.closeProfile('s');
      expect(await eventually(async () => (await subscribed()) === 0, 5_000, 50)).toBe(true);
    } finally {
      watcher.disconnect();
    }
  });

  it('names the master and every node; a test reports the sentinel mode and the master', async () => {
    const pool = makePool();
    const masterAddress = await set().currentMaster();
    const [master] = await pool.masters('s');
    expect(master?.address).toBe(masterAddress);
    expect(master?.spec).toMatchObject({ password: 'data-pw', db: 3 });
    expect(master?.spec.topology).toBeUndefined();
    const nodes = await pool.nodes('s');
    expect(nodes.filter((n) => n.role === 'master').map((n) => n.address)).toEqual([masterAddress]);
    expect(nodes.filter((n) => n.role === 'replica')).toHaveLength(2);
    expect(
      nodes
        .filter((n) => n.role === 'sentinel')
        .map((n) => n.address)
        .sort(),
    ).toEqual([...set().sentinelAddresses].sort());
    expect(await pool.test(sentinelSpec())).toMatchObject({ ok: true, mode: 'sentinel', master: masterAddress, role: 'master' });
  });

  it('says which is wrong: an unknown master name (on topology.masterName) or the sentinel password', async () => {
    const pool = makePool();
    expect(await pool.test(sentinelSpec({ masterName: 'no-such-master' }))).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION', field: 'topology.masterName', message: expect.stringContaining('no-such-master') },
    });
    const wrong = await pool.test(sentinelSpec({ sentinelPassword: 'not-it' }));
    expect(wrong).toMatchObject({ ok: false, error: { code: 'UNREACHABLE', message: expect.stringContaining('wrong username or password') } });
    expect(JSON.stringify(wrong)).not.toContain('not-it');
  });

  it('follows a SENTINEL FAILOVER: the state stream names the new master, and commands and raw sockets go there', async () => {
    const pool = makePool();
    const seen: ConnectionState[] = [];
    pool.onState((s) => seen.push(s));
    const shared = await pool.shared('s');
    await shared.set('before', '1');
    const old = await set().currentMaster();

    const sentinel = await set().sentinelClient(0);
    try {
      expect(await sentinel.call('SENTINEL', 'FAILOVER', set().masterName)).toBe('OK');
    } finally {
      sentinel.disconnect();
    }
    const moved = await eventually(async () => (await set().currentMaster()) !== old, 20_000, 100);
    expect(moved).toBe(true);
    const now = await set().currentMaster();
    // The shared client reconnects on its own (Sentinel kills the demoted master's clients).
    const noticed = await eventually(() => seen.some((s) => s.state === 'ready' && s.detail === `failover: master is now ${now}`), 20_000, 50);
    expect(noticed, JSON.stringify(seen)).toBe(true);
    // The notice came once most sentinels named the new master; soon all do. None named the old one.
    const allNamed = async () => (await mastersNamed(sentinelSpec())).filter((m) => m === now).length === 3;
    expect(await eventually(allNamed, 20_000, 100)).toBe(true);
    expect(seen.filter((s) => s.detail === `failover: master is now ${old}`)).toEqual([]);
    expect(await eventually(async () => (await shared.set('after', '2').catch(() => 'no')) === 'OK', 10_000, 100)).toBe(true);
    expect(await shared.call('ROLE')).toContain('master');
    expect((await pool.masters('s'))[0]?.address).toBe(now);

    // Raw sockets resolve the master when they open: this one reaches the new master.
    expect(formatted(await currentMasterSpec(sentinelSpec()))).toBe(now);
    const raw = await openRawConnection(sentinelSpec(), 3, { name: 'cacheboard:test-raw' });
    try {
      expect(raw.address).toBe(now);
    } finally {
      raw.destroy();
    }

    // The failover detector listens on every sentinel; its subscriptions go with the pool.
    const watcher = await set().sentinelClient(1);
    try {
      const subscribed = async () =>
        String(await watcher.client('LIST'))
          .split('\n')
          .filter((l) => / sub=[1-9]/.test(l)).length;
      expect(await subscribed()).toBeGreaterThan(0);
      await pool.shutdown();
      expect(await eventually(async () => (await subscribed()) === 0, 5_000, 50)).toBe(true);
    } finally {
      watcher.disconnect();
    }
  }, 60_000);
});

function formatted(spec: ProfileSpec): string {
  return `${spec.host}:${spec.port}`;
}
