import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ProfileDraft, type ProfileSpec } from '../../../app/schemas/connections';
import { Pool } from './pool';
import { closeAllTunnels } from './sshVia';
import { clusterBehind, sentinelsBehind, useBastion } from './sshTestKit';

const bastion = useBastion();
const STANDALONE = 17379;
const CLUSTER = [17001, 17002, 17003];
const MASTER = 17479;
const REPLICA = 17480;
const SENTINELS = [27379, 27380, 27381];

function sshOf(): NonNullable<ProfileSpec['ssh']> {
  const b = bastion();
  return { host: b.sshd.host, port: b.sshd.port, user: 'root', auth: { kind: 'key', keyFile: b.key.privateFile }, knownHostsFile: b.knownHosts };
}

function poolOf(spec: ProfileSpec): Pool {
  return new Pool({ resolve: (id) => (id === 'p' ? { id, source: 'config', spec } : undefined) });
}

/** Whether anything answers at host:port from this side (the host): the servers behind the bastion must not. */
function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });
}

describe('a profile through SSH', () => {
  it('reaches a standalone Redis only the bastion can reach, and its test says so', async () => {
    await bastion().redis(STANDALONE);
    expect(await reachable(STANDALONE)).toBe(false);
    const spec = ProfileDraft.parse({ name: 's', url: `redis://127.0.0.1:${STANDALONE}`, ssh: sshOf() });
    const pool = poolOf(spec);
    try {
      expect(await pool.test(spec)).toMatchObject({ ok: true, role: 'master' });
      const redis = await pool.shared('p');
      await redis.set('through', 'ssh');
      expect(
        bastion()
          .cli(['-p', String(STANDALONE), 'GET', 'through'])
          .trim(),
      ).toBe('ssh');
      // The server sees the client coming from the bastion's loopback: the sshd opened the connection.
      expect(String(await redis.client('INFO'))).toMatch(/addr=127\.0\.0\.1:/);
    } finally {
      await pool.shutdown();
      await closeAllTunnels();
    }
  });

  it('refuses an unknown host key and reports its fingerprint for pinning', async () => {
    const spec = ProfileDraft.parse({ name: 's', url: `redis://127.0.0.1:${STANDALONE}`, ssh: { ...sshOf(), knownHostsFile: '/dev/null' } });
    const r = await poolOf(spec).test(spec);
    expect(r.ok).toBe(false);
    expect(r.sshHostKey).toMatchObject({ fingerprint: bastion().sshd.fingerprint, reason: 'unknown' });
    const pinned = ProfileDraft.parse({
      name: 's',
      url: `redis://127.0.0.1:${STANDALONE}`,
      ssh: { ...sshOf(), knownHostsFile: '/dev/null', pinned: { [`${bastion().sshd.host}:${bastion().sshd.port}`]: bastion().sshd.fingerprint } },
    });
    expect(await poolOf(pinned).test(pinned)).toMatchObject({ ok: true });
    await closeAllTunnels();
  });

  it('checks a Host alias against the pin under its HostName and Port, which the refusal names', async () => {
    const b = bastion();
    const config = join(b.dir, 'ssh_config_pins');
    writeFileSync(config, `Host pin-alias\n  HostName ${b.sshd.host}\n  Port ${b.sshd.port}\n  User root\n  IdentityFile ${b.key.privateFile}\n`);
    const url = `redis://127.0.0.1:${STANDALONE}`;
    const fp = b.sshd.fingerprint;
    // Pinned under the alias as typed: not where the check looks, so the key is unknown, named at its real address.
    const byAlias = ProfileDraft.parse({ name: 's', url, ssh: { host: 'pin-alias', configFile: config, pinned: { [`pin-alias:${b.sshd.port}`]: fp } } });
    const refused = await poolOf(byAlias).test(byAlias);
    expect(refused.sshHostKey).toMatchObject({ host: b.sshd.host, port: b.sshd.port, fingerprint: fp, reason: 'unknown' });
    const resolved = ProfileDraft.parse({ name: 's', url, ssh: { host: 'pin-alias', configFile: config, pinned: { [`${b.sshd.host}:${b.sshd.port}`]: fp } } });
    expect(await poolOf(resolved).test(resolved)).toMatchObject({ ok: true, role: 'master' });
    await closeAllTunnels();
  });

  it('walks and deletes keys on every master of a 3-master cluster behind one bastion (natMap to forwarded ports)', async () => {
    await clusterBehind(bastion(), CLUSTER);
    const spec = ProfileDraft.parse({ name: 'c', url: `redis://127.0.0.1:${CLUSTER[0] ?? 0}`, topology: { kind: 'cluster' }, ssh: sshOf() });
    const pool = poolOf(spec);
    try {
      const cluster = await pool.cluster('p');
      for (let i = 0; i < 60; i++) await cluster.set(`k:${i}`, String(i));
      const masters = await pool.masters('p');
      expect(masters.map((m) => m.address).sort()).toEqual(CLUSTER.map((p) => `127.0.0.1:${p}`));
      let seen = 0;
      for (const m of masters) {
        const { redis, release } = await pool.dedicated('p', { purpose: 'bulk', address: m.address });
        const keys = await redis.keys('k:*');
        expect(keys.length).toBeGreaterThan(0);
        seen += keys.length;
        // One DEL per key: keys of different slots cannot share a command, even on one master.
        for (const k of keys) await redis.del(k);
        await release();
      }
      expect(seen).toBe(60);
      for (const p of CLUSTER)
        expect(
          bastion()
            .cli(['-p', String(p), 'DBSIZE'])
            .trim(),
        ).toBe('0');
    } finally {
      await pool.shutdown();
      await closeAllTunnels();
    }
  }, 60_000);

  it('names the sentinels and the master by their own addresses, never the forwarded loopback ports, when they cannot be reached', async () => {
    // Nothing listens at these ports behind the bastion: the sentinels refuse, through a working tunnel.
    const gone = [27991, 27992];
    const spec = ProfileDraft.parse({
      name: 'g',
      topology: { kind: 'sentinel', sentinels: gone.map((p) => `127.0.0.1:${p}`), masterName: 'gone' },
      ssh: sshOf(),
    });
    const pool = poolOf(spec);
    try {
      const r = await pool.test(spec);
      expect(r.ok).toBe(false);
      const shared = await pool.shared('p').then(
        () => '',
        (e: unknown) => (e as Error).message,
      );
      const state = pool.states().find((x) => x.profileId === 'p');
      const text = `${r.error?.message ?? ''} ${shared} ${state?.detail ?? ''}`;
      expect(text).toContain('127.0.0.1:27991');
      // Any other 127.0.0.1 port in the text would be a forwarded one.
      expect([...text.matchAll(/127\.0\.0\.1:(\d+)/g)].map((m) => Number(m[1])).filter((p) => !gone.includes(p))).toEqual([]);
    } finally {
      await pool.shutdown();
      await closeAllTunnels();
    }
  }, 30_000);

  it('follows a sentinel set behind one bastion to the master they name, and to the new one after a failover', async () => {
    await sentinelsBehind(bastion(), MASTER, REPLICA, SENTINELS, 'wire');
    const spec = ProfileDraft.parse({
      name: 'v',
      topology: { kind: 'sentinel', sentinels: SENTINELS.map((p) => `127.0.0.1:${p}`), masterName: 'wire' },
      ssh: sshOf(),
    });
    const pool = poolOf(spec);
    try {
      expect(await pool.test(spec)).toMatchObject({ ok: true, master: `127.0.0.1:${MASTER}` });
      const redis = await pool.shared('p');
      await redis.set('before', '1');
      expect((await redis.role())[0]).toBe('master');
      bastion().cli(['-p', String(SENTINELS[0] ?? 0), 'SENTINEL', 'FAILOVER', 'wire']);
      const deadline = Date.now() + 30_000;
      let reached = '';
      while (Date.now() < deadline) {
        try {
          await redis.set('after', '1');
          const info = String(await redis.info('server'));
          reached = /tcp_port:(\d+)/.exec(info)?.[1] ?? '';
          if (reached === String(REPLICA)) break;
        } catch {
          // The switch is under way.
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(reached).toBe(String(REPLICA));
      expect(
        bastion()
          .cli(['-p', String(REPLICA), 'GET', 'after'])
          .trim(),
      ).toBe('1');
      expect((await pool.masters('p')).map((m) => m.address)).toEqual([`127.0.0.1:${REPLICA}`]);
    } finally {
      await pool.shutdown();
      await closeAllTunnels();
    }
  }, 60_000);

  it('shows a killed tunnel as a lost connection, and works again once the SSH server is back', async () => {
    const spec = ProfileDraft.parse({ name: 's', url: `redis://127.0.0.1:${STANDALONE}`, ssh: sshOf() });
    const pool = poolOf(spec);
    const states: string[] = [];
    pool.onState((s) => states.push(s.state));
    try {
      const redis = await pool.shared('p');
      expect(await redis.ping()).toBe('PONG');
      bastion().sshd.kill();
      const lost = Date.now() + 20_000;
      while (!states.includes('reconnecting') && !states.includes('error') && Date.now() < lost) await new Promise((r) => setTimeout(r, 100));
      expect(states.some((s) => s === 'reconnecting' || s === 'error')).toBe(true);
      await bastion().sshd.restart();
      const back = Date.now() + 30_000;
      let pong = '';
      while (pong !== 'PONG' && Date.now() < back) {
        pong = await (await pool.shared('p')).ping().catch(() => '');
        if (pong !== 'PONG') await new Promise((r) => setTimeout(r, 250));
      }
      expect(pong).toBe('PONG');
      expect(pool.states().find((s) => s.profileId === 'p')?.state).toBe('ready');
    } finally {
      await pool.shutdown();
      await closeAllTunnels();
    }
  }, 70_000);
});
