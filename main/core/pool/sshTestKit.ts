import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { createNetns, type Netns } from '../../../testing/netns';
import { makeUserKey, startSshd, type Sshd, type UserKey } from '../../../testing/sshd';
import type { ServerCert } from '../../../testing/tls';
import type { NodeAddress } from '../../../app/hostPort';

/**
 * A bastion: a network namespace holding an sshd and whatever Redis servers a test starts in
 * it, bound to the namespace's own address. The host has no route into the namespace's
 * 127.0.0.1 and tests bind Redis there or to the link address, checked unreachable directly,
 * so a reply proves the traffic went through SSH.
 */
export interface Bastion {
  ns: Netns;
  sshd: Sshd;
  key: UserKey;
  /** A key with the passphrase LOCKED_PASSPHRASE, authorised too. */
  lockedKey: UserKey;
  dir: string;
  knownHosts: string;
  /** `redis-server` inside, bound to 127.0.0.1 of the namespace, with extra arguments (and a config file first). */
  redis(port: number, extra?: string[], conf?: string): Promise<void>;
  /** redis-cli inside the namespace. */
  cli(args: string[]): string;
  /** A TLS-only `redis-server` inside, bound to `at` and serving `cert`, with extra arguments (and a config file first). */
  tlsRedis(at: NodeAddress, cert: ServerCert, extra?: string[], conf?: string): Promise<void>;
  /** redis-cli over TLS to `at` inside the namespace, trusting `caFile`. */
  tlsCli(at: NodeAddress, caFile: string, args: string[]): string;
  /**
   * With `{ behindJump: true }`: the jump host (ProxyJump) in front, an sshd in a namespace of its
   * own; the bastion's namespace hangs off that one, so the host cannot reach the bastion at all.
   */
  jump?: { ns: Netns; sshd: Sshd };
}

export async function until(what: string, ok: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      if (ok()) return;
    } catch {
      // Not ready yet.
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const LOCKED_PASSPHRASE = 'correct horse battery';

/**
 * One bastion for a test file, torn down after it (servers killed, namespaces deleted). `hosts`: lines of the
 * bastion's own /etc/hosts, the names its sshd resolves when asked to forward to a host name.
 */
export function useBastion(opts: { behindJump?: boolean; hosts?: string[] } = {}): () => Bastion {
  let b: Bastion | undefined;
  const children: ChildProcess[] = [];
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cacheboard-sshwire-'));
    const key = makeUserKey(dir, 'id_test');
    const lockedKey = makeUserKey(dir, 'id_locked', LOCKED_PASSPHRASE);
    const authorizedKeys = [key.publicLine, lockedKey.publicLine];
    const jumpNs = opts.behindJump === true ? createNetns() : undefined;
    const jump = jumpNs === undefined ? undefined : { ns: jumpNs, sshd: await startSshd({ netns: jumpNs, authorizedKeys }) };
    const ns = createNetns(jumpNs, opts.hosts === undefined ? {} : { hosts: opts.hosts });
    const sshd = await startSshd({ netns: ns, authorizedKeys });
    const knownHosts = join(dir, 'known_hosts');
    writeFileSync(knownHosts, [sshd, ...(jump === undefined ? [] : [jump.sshd])].map((s) => `${s.knownHostsLine()}\n`).join(''));
    const cli = (args: string[]): string => ns.run('redis-cli', args);
    const tlsCli = (at: NodeAddress, caFile: string, args: string[]): string =>
      cli(['-h', at.host, '-p', String(at.port), '--tls', '--cacert', caFile, ...args]);
    b = {
      ns,
      sshd,
      key,
      lockedKey,
      dir,
      knownHosts,
      cli,
      ...(jump === undefined ? {} : { jump }),
      redis: async (port, extra = [], conf) => {
        const base = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'no', '--dir', dir];
        children.push(ns.spawn('redis-server', [...(conf === undefined ? [] : [conf]), ...base, ...extra]));
        await until(`redis ${port}`, () => cli(['-p', String(port), 'PING']).trim() === 'PONG');
      },
      tlsCli,
      tlsRedis: async (at, cert, extra = [], conf) => {
        const files = ['--tls-cert-file', cert.certFile, '--tls-key-file', cert.keyFile, '--tls-ca-cert-file', cert.caFile, '--tls-auth-clients', 'no'];
        const base = ['--port', '0', '--tls-port', String(at.port), '--bind', at.host, ...files, '--save', '', '--appendonly', 'no', '--protected-mode', 'no'];
        children.push(ns.spawn('redis-server', [...(conf === undefined ? [] : [conf]), ...base, '--dir', dir, ...extra]));
        await until(`redis ${at.host}:${at.port}`, () => tlsCli(at, cert.caFile, ['PING']).trim() === 'PONG');
      },
    };
  }, 60_000);
  afterAll(() => {
    for (const c of children) c.kill('SIGKILL');
    b?.sshd.stop();
    b?.ns.destroy();
    b?.jump?.sshd.stop();
    b?.jump?.ns.destroy();
    if (b !== undefined) rmSync(b.dir, { recursive: true, force: true });
  });
  return () => {
    if (b === undefined) throw new Error('bastion not started');
    return b;
  };
}

/** Three masters on 127.0.0.1:ports inside the bastion, slots spread by redis-cli --cluster create. */
export async function clusterBehind(b: Bastion, ports: number[]): Promise<void> {
  for (const p of ports) {
    await b.redis(p, ['--cluster-enabled', 'yes', '--cluster-config-file', join(b.dir, `nodes-${p}.conf`), '--cluster-node-timeout', '2000']);
  }
  b.cli(['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-yes']);
  await until('cluster_state:ok', () => ports.every((p) => b.cli(['-p', String(p), 'CLUSTER', 'INFO']).includes('cluster_state:ok')));
}

/** A master, a replica and three sentinels (quorum 2) inside the bastion, all on its 127.0.0.1. */
export async function sentinelsBehind(b: Bastion, master: number, replica: number, sentinels: number[], name: string): Promise<void> {
  await b.redis(master);
  await b.redis(replica, ['--replicaof', '127.0.0.1', String(master)]);
  await until('replica in sync', () => b.cli(['-p', String(replica), 'INFO', 'replication']).includes('master_link_status:up'));
  for (const p of sentinels) {
    const conf = join(b.dir, `sentinel-${p}.conf`);
    writeFileSync(
      conf,
      [`sentinel monitor ${name} 127.0.0.1 ${master} 2`, `sentinel down-after-milliseconds ${name} 1000`, `sentinel failover-timeout ${name} 5000`, ''].join(
        '\n',
      ),
    );
    await b.redis(p, ['--sentinel'], conf);
  }
  await until('sentinels see each other', () =>
    sentinels.every((p) => /num-other-sentinels\s+2/.test(b.cli(['-p', String(p), 'SENTINEL', 'MASTER', name]).replace(/\n/g, ' '))),
  );
}

/** Remove a scratch dir of a test. */
export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}
