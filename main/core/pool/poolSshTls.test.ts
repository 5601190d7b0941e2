import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProfileDraft, type ProfileSpec } from '../../../app/schemas/connections';
import { makeNodeCerts, type NodeCerts } from '../../../testing/tls';
import { Pool } from './pool';
import { closeAllTunnels } from './sshVia';
import { useBastion } from './sshTestKit';
import { tlsClusterBehind, tlsSentinelsBehind, type TlsNode } from './sshTlsTestKit';

/*
 * Every server behind the bastion listens on an address of the bastion's own (127.0.1.x, 127.0.2.x, or a name its
 * /etc/hosts gives one), never 127.0.0.1, and its certificate names only that: a check against the forwarded
 * loopback port's 127.0.0.1 fails, a check against the node's address as the bastion sees it passes.
 */
const CLUSTER: TlsNode[] = ['a', 'b', 'c'].map((n, i) => ({ at: { host: `127.0.1.${i + 1}`, port: 17101 + i }, name: `node-${n}.cb.test`, cert: n }));
const IMPOSTOR = 'impostor.cb.test';
const MASTER: TlsNode = { at: { host: '127.0.2.1', port: 17579 }, cert: 'master' };
const REPLICA: TlsNode = { at: { host: '127.0.2.2', port: 17580 }, cert: 'replica' };
const SENTINELS: TlsNode[] = [11, 12, 13].map((i) => ({ at: { host: `127.0.2.${i}`, port: 27479 }, cert: `sentinel${i}` }));

const bastion = useBastion({ hosts: [...CLUSTER.map((n) => `${n.at.host} ${n.name ?? ''}`), `${CLUSTER[0]?.at.host ?? ''} ${IMPOSTOR}`] });
let certs: NodeCerts | undefined;
beforeAll(() => {
  certs = makeNodeCerts({
    ...Object.fromEntries(CLUSTER.map((n) => [n.cert, `DNS:${n.name ?? ''}`])),
    ...Object.fromEntries([MASTER, REPLICA, ...SENTINELS].map((n) => [n.cert, `IP:${n.at.host}`])),
  });
});
afterAll(() => certs?.remove());

function made(): NodeCerts {
  if (certs === undefined) throw new Error('certificates not made');
  return certs;
}

function caFile(): string {
  return made().caFile;
}

function runId(info: string): string {
  return /run_id:(\w+)/.exec(info)?.[1] ?? '';
}

function sshOf(): NonNullable<ProfileSpec['ssh']> {
  const b = bastion();
  return { host: b.sshd.host, port: b.sshd.port, user: 'root', auth: { kind: 'key', keyFile: b.key.privateFile }, knownHostsFile: b.knownHosts };
}

function poolOf(spec: ProfileSpec): Pool {
  return new Pool({ resolve: (id) => (id === 'p' ? { id, source: 'config', spec } : undefined) });
}

function clusterProfile(seedHost: string): ProfileSpec {
  const seed = CLUSTER[0]?.at.port ?? 0;
  return ProfileDraft.parse({ name: 'c', url: `rediss://${seedHost}:${seed}`, topology: { kind: 'cluster' }, tls: { caFile: caFile() }, ssh: sshOf() });
}

describe('TLS through SSH, each node checked against its own address behind the bastion', () => {
  it('reads and writes keys of every slot range of a 3-master TLS cluster announcing host names, with no servername set', async () => {
    await tlsClusterBehind(bastion(), CLUSTER, made());
    const spec = clusterProfile(CLUSTER[0]?.name ?? '');
    expect(spec.tls.servername).toBeUndefined();
    const pool = poolOf(spec);
    try {
      expect(await pool.test(spec)).toMatchObject({ ok: true });
      const cluster = await pool.cluster('p');
      for (let i = 0; i < 90; i++) await cluster.set(`k:${i}`, String(i));
      for (let i = 0; i < 90; i++) expect(await cluster.get(`k:${i}`)).toBe(String(i));
      // Every master got some: the writes reached all three certificates' owners.
      for (const n of CLUSTER) expect(Number(bastion().tlsCli(n.at, caFile(), ['DBSIZE']).trim())).toBeGreaterThan(0);
    } finally {
      await pool.shutdown();
      await closeAllTunnels();
    }
  }, 90_000);

  it('refuses a node whose certificate names another host, saying so', async () => {
    // The same server as node-a, reached under a name its certificate does not hold.
    const spec = clusterProfile(IMPOSTOR);
    const pool = poolOf(spec);
    try {
      const r = await pool.test(spec);
      expect(r.ok).toBe(false);
      expect(r.error?.code).toBe('TLS');
      expect(r.error?.message).toContain(IMPOSTOR);
      expect(r.error?.message).toMatch(/certificate does not name this host/);
      // The connection the pages use says the same.
      await expect(pool.cluster('p')).rejects.toThrow(/TLS handshake with .*impostor\.cb\.test.*certificate does not name this host/);
    } finally {
      await pool.shutdown();
      await closeAllTunnels();
    }
    // Under its own name the same node is accepted: the refusal is the name, not the tunnel.
    const own = clusterProfile(CLUSTER[0]?.name ?? '');
    expect(await poolOf(own).test(own)).toMatchObject({ ok: true });
    await closeAllTunnels();
  }, 60_000);

  it('follows a TLS sentinel set (sentinels and master on addresses of their own) to its master, and to the new one after a failover', async () => {
    const b = bastion();
    await tlsSentinelsBehind(b, { master: MASTER, replica: REPLICA, sentinels: SENTINELS, name: 'tlsset' }, made());
    const spec = ProfileDraft.parse({
      name: 'v',
      topology: { kind: 'sentinel', sentinels: SENTINELS.map((s) => `${s.at.host}:${s.at.port}`), masterName: 'tlsset' },
      tls: { enabled: true, caFile: caFile() },
      ssh: sshOf(),
    });
    const pool = poolOf(spec);
    try {
      expect(await pool.test(spec)).toMatchObject({ ok: true, master: `${MASTER.at.host}:${MASTER.at.port}` });
      const redis = await pool.shared('p');
      await redis.set('before', '1');
      b.tlsCli(SENTINELS[0]?.at ?? MASTER.at, caFile(), ['SENTINEL', 'FAILOVER', 'tlsset']);
      // TLS-only servers report tcp_port:0: the run id tells the old replica.
      const replicaId = runId(b.tlsCli(REPLICA.at, caFile(), ['INFO', 'server']));
      const deadline = Date.now() + 30_000;
      let reached = '';
      while (Date.now() < deadline) {
        try {
          await redis.set('after', '1');
          reached = runId(String(await redis.info('server')));
          if (reached === replicaId) break;
        } catch {
          // The switch is under way.
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(reached).toBe(replicaId);
      // A write in the loop may have reached the old master just before it was demoted: this one is on the new one.
      await redis.set('after', '2');
      expect(b.tlsCli(REPLICA.at, caFile(), ['GET', 'after']).trim()).toBe('2');
    } finally {
      await pool.shutdown();
      await closeAllTunnels();
    }
  }, 90_000);
});
