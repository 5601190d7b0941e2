import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetns, startRedisIn, type Netns } from '../../../../testing/netns';
import { createPasswordUser, makeUserKey, startAgent, startSshd, type PasswordUser, type Sshd, type UserKey } from '../../../../testing/sshd';
import { HostKeyError } from './hostKeyError';
import { SshTunnels } from './sshTunnels';
import type { SshHop, SshRoute } from './types';

// Host → bastion namespace (sshd) → inner namespace (sshd2 + Redis). The host has no route to the inner
// link, so a PING that succeeds went through SSH.
let dir: string;
let bastion: Netns;
let inner: Netns;
let sshd: Sshd;
let sshd2: Sshd;
let sshdPw: Sshd;
let key: UserKey;
let lockedKey: UserKey;
let pwUser: PasswordUser;
let redis: { host: string; port: number; stop(): void };
let knownHosts: string;
const tunnels = new SshTunnels();
const clients: Redis[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cacheboard-ssh-'));
  key = makeUserKey(dir, 'id_plain');
  lockedKey = makeUserKey(dir, 'id_locked', 'correct horse');
  bastion = createNetns();
  inner = createNetns(bastion);
  const authorizedKeys = [key.publicLine, lockedKey.publicLine];
  sshd = await startSshd({ netns: bastion, authorizedKeys });
  sshd2 = await startSshd({ netns: inner, authorizedKeys });
  sshdPw = await startSshd({ netns: bastion, port: 2222, passwords: true });
  pwUser = createPasswordUser();
  redis = await startRedisIn(inner, [inner.addr, '127.0.0.1']);
  knownHosts = join(dir, 'known_hosts');
  writeFileSync(knownHosts, [sshd, sshd2, sshdPw].map((s) => s.knownHostsLine()).join('\n') + '\n');
}, 60_000);

afterAll(async () => {
  for (const c of clients) c.disconnect();
  await tunnels.closeAll();
  for (const s of [sshd, sshd2, sshdPw]) s.stop();
  pwUser.remove();
  inner.destroy();
  bastion.destroy();
  rmSync(dir, { recursive: true, force: true });
});

function hop(s: Sshd, extra: Partial<SshHop> = {}): SshHop {
  return { host: s.host, port: s.port, user: 'root', keyFile: key.privateFile, ...extra };
}

async function ping(at: { host: string; port: number }): Promise<{ pong: string; seenFrom: string }> {
  const client = new Redis({ host: at.host, port: at.port, lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => 100 });
  clients.push(client);
  await client.connect();
  const pong = await client.ping();
  const info = String(await client.client('INFO'));
  client.disconnect();
  return { pong, seenFrom: /addr=([^ ]+):\d+/.exec(info)?.[1] ?? '' };
}

/**
 * Whether `host:port` answers like the server we expect (`+PONG` to a PING, an `SSH-` banner). A bare TCP connect
 * proves nothing here: this machine's network accepts connections to any outside address.
 */
function answers(host: string, port: number, expected: string, send = ''): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    const done = (ok: boolean): void => {
      clearTimeout(timer);
      s.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 1500);
    let got = '';
    s.once('connect', () => s.write(send));
    s.on('data', (d: Buffer) => {
      got += d.toString();
      if (got.startsWith(expected)) done(true);
    });
    s.once('error', () => done(false));
    s.once('close', () => done(false));
  });
}

describe('SSH tunnels against a real sshd', () => {
  it('PINGs a Redis the host cannot reach, through one hop', async () => {
    expect(await answers(redis.host, redis.port, '+PONG', 'PING\r\n')).toBe(false);
    const lease = tunnels.lease({ hops: [hop(sshd)], knownHostsFile: knownHosts });
    const local = lease.forward(`${redis.host}:${redis.port}`);
    expect(local.host).toBe('127.0.0.1');
    const { pong, seenFrom } = await ping(local);
    expect(pong).toBe('PONG');
    expect(seenFrom).toBe(inner.parentAddr);
    expect(lease.state().state).toBe('up');
    lease.release();
  });

  it('goes through two hops (ProxyJump): the second sshd is only reachable from the first', async () => {
    expect(await answers(sshd2.host, sshd2.port, 'SSH-')).toBe(false);
    expect(await answers(sshd.host, sshd.port, 'SSH-')).toBe(true);
    const lease = tunnels.lease({ hops: [hop(sshd), hop(sshd2)], knownHostsFile: knownHosts });
    const { pong, seenFrom } = await ping(lease.forward('127.0.0.1:6379'));
    expect(pong).toBe('PONG');
    expect(seenFrom).toBe('127.0.0.1');
    lease.release();
  });

  it('authenticates with a passphrase-protected key, and says so without the passphrase when it is wrong', async () => {
    const ok = tunnels.lease({ hops: [hop(sshd, { keyFile: lockedKey.privateFile, passphrase: 'correct horse' })], knownHostsFile: knownHosts });
    expect((await ping(ok.forward(`${redis.host}:${redis.port}`))).pong).toBe('PONG');
    ok.release();
    const bad = tunnels.lease({ hops: [hop(sshd, { keyFile: lockedKey.privateFile, passphrase: 'wrong battery' })], knownHostsFile: knownHosts });
    const err = await bad.ready().then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/SSH key/);
    expect(err?.message).not.toContain('wrong battery');
    expect(bad.state()).toMatchObject({ state: 'down' });
    bad.release();
  });

  it('authenticates through an ssh-agent socket', async () => {
    const agent = startAgent(dir, key.privateFile);
    try {
      const lease = tunnels.lease({ hops: [{ host: sshd.host, port: sshd.port, user: 'root', agent: agent.sock }], knownHostsFile: knownHosts });
      expect((await ping(lease.forward(`${redis.host}:${redis.port}`))).pong).toBe('PONG');
      lease.release();
    } finally {
      agent.stop();
    }
  });

  it('authenticates with a password, and a wrong one fails without showing it', async () => {
    const base = { host: sshdPw.host, port: sshdPw.port, user: pwUser.name };
    const lease = tunnels.lease({ hops: [{ ...base, password: pwUser.password }], knownHostsFile: knownHosts });
    expect((await ping(lease.forward(`${redis.host}:${redis.port}`))).pong).toBe('PONG');
    lease.release();
    const bad = tunnels.lease({ hops: [{ ...base, password: 'not-it-123' }], knownHostsFile: knownHosts });
    const err = await bad.ready().then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err?.message).toMatch(/SSH authentication failed/);
    expect(err?.message).not.toContain('not-it-123');
    bad.release();
  });

  it('refuses a changed host key with both fingerprints, and an unknown host', async () => {
    const other = join(dir, 'known_hosts_changed');
    // sshd2's key written under sshd's name: what a man in the middle would look like.
    writeFileSync(other, `${sshd.host} ${sshd2.knownHostsLine().split(' ').slice(1).join(' ')}\n`);
    const changed = tunnels.lease({ hops: [hop(sshd)], knownHostsFile: other });
    const err = await changed.ready().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(HostKeyError);
    expect(err).toMatchObject({ reason: 'changed', presented: sshd.fingerprint, expected: sshd2.fingerprint });
    expect((err as Error).message).toContain(sshd.fingerprint);
    expect((err as Error).message).toContain(sshd2.fingerprint);
    changed.release();
    const empty = join(dir, 'known_hosts_empty');
    writeFileSync(empty, '');
    const unknown = tunnels.lease({ hops: [hop(sshd)], knownHostsFile: empty });
    await expect(unknown.ready()).rejects.toMatchObject({ reason: 'unknown', presented: sshd.fingerprint });
    unknown.release();
  });

  it('accepts a pinned fingerprint and refuses another one (web build)', async () => {
    const pinned: SshRoute = { hops: [hop(sshd)], pinned: { [`${sshd.host}:${sshd.port}`]: sshd.fingerprint } };
    const lease = tunnels.lease(pinned);
    await lease.ready();
    lease.release();
    const wrong = tunnels.lease({ hops: [hop(sshd)], pinned: { [`${sshd.host}:${sshd.port}`]: sshd2.fingerprint } });
    await expect(wrong.ready()).rejects.toMatchObject({ reason: 'changed', expected: sshd2.fingerprint });
    wrong.release();
  });

  it('rebuilds the chain after the sshd is killed mid-use and restarted', async () => {
    const lease = tunnels.lease({ hops: [hop(sshd)], knownHostsFile: knownHosts, keepaliveMs: 1000 });
    const local = lease.forward(`${redis.host}:${redis.port}`);
    const client = new Redis({ host: local.host, port: local.port, lazyConnect: true, maxRetriesPerRequest: null, retryStrategy: () => 200 });
    clients.push(client);
    await client.connect();
    expect(await client.ping()).toBe('PONG');
    sshd.kill();
    await waitFor(() => lease.state().state === 'down');
    expect(lease.state().error).toMatch(/SSH/);
    await sshd.restart();
    expect(await client.ping()).toBe('PONG');
    expect(lease.state().state).toBe('up');
    client.disconnect();
    lease.release();
  }, 30_000);

  it('notices a silent SSH server by keepalive, and serves again once it answers', async () => {
    const lease = tunnels.lease({ hops: [hop(sshd)], knownHostsFile: knownHosts, keepaliveMs: 300 });
    const local = lease.forward(`${redis.host}:${redis.port}`);
    expect((await ping(local)).pong).toBe('PONG');
    sshd.freeze(true);
    try {
      // The TCP connection stays open: only keepalive (3 missed at 300 ms) can tell the chain is dead.
      await waitFor(() => lease.state().state === 'down', 5000);
      expect(lease.state().error).toMatch(/SSH connection lost/);
    } finally {
      sshd.freeze(false);
    }
    expect((await ping(local)).pong).toBe('PONG');
    lease.release();
  }, 20_000);

  it('shares one chain between leases of a route and closes every port with the last lease', async () => {
    const route: SshRoute = { hops: [hop(sshd)], knownHostsFile: knownHosts };
    const a = tunnels.lease(route);
    const b = tunnels.lease({ knownHostsFile: knownHosts, hops: [hop(sshd)] });
    const port = a.forward(`${redis.host}:${redis.port}`).port;
    expect(b.forward(`${redis.host}:${redis.port}`).port).toBe(port);
    a.release();
    expect(() => a.forward(`${redis.host}:${redis.port}`)).toThrow(/released/);
    expect((await ping({ host: '127.0.0.1', port })).pong).toBe('PONG');
    b.release();
    await waitFor(async () => !(await answers('127.0.0.1', port, '+PONG', 'PING\r\n')));
    expect(await refused('127.0.0.1', port)).toBe(true);
  });
});

function refused(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    s.once('connect', () => (s.destroy(), resolve(false)));
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

describe('SSH tunnels: the lease life cycle', () => {
  it('connects on first use, closes a connection it cannot serve and names the cause in state()', async () => {
    const empty = join(dir, 'known_hosts_none');
    writeFileSync(empty, '');
    const lease = tunnels.lease({ hops: [hop(sshd)], knownHostsFile: empty });
    expect(lease.state().state).toBe('connecting');
    const local = lease.forward(`${redis.host}:${redis.port}`);
    const client = new Redis({ host: local.host, port: local.port, lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    clients.push(client);
    await expect(client.connect().then(() => client.ping())).rejects.toThrow();
    expect(lease.state()).toEqual({ state: 'down', error: expect.stringContaining(sshd.fingerprint) as unknown });
    lease.release();
  });

  it('closeAll() closes every forwarded port of every route', async () => {
    const own = new SshTunnels();
    const one = own.lease({ hops: [hop(sshd)], knownHostsFile: knownHosts });
    const two = own.lease({ hops: [hop(sshd), hop(sshd2)], knownHostsFile: knownHosts });
    const ports = [one.forward(`${redis.host}:${redis.port}`).port, two.forward('127.0.0.1:6379').port];
    expect((await ping({ host: '127.0.0.1', port: ports[1] ?? 0 })).pong).toBe('PONG');
    await own.closeAll();
    for (const port of ports) expect(await refused('127.0.0.1', port)).toBe(true);
  });
});

async function waitFor(check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}
