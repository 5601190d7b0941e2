import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createNetns, sweepStaleNetns } from './netns';
import { startSshd } from './sshd';

function banner(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const s = connect({ host, port });
    s.once('data', (d: Buffer) => (s.destroy(), resolve(d.toString())));
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
  });
}

function namespaces(): string[] {
  return execFileSync('ip', ['netns', 'list'], { encoding: 'utf8' })
    .split('\n')
    .map((l) => l.split(' ')[0] ?? '');
}

describe('testing/sshd', () => {
  it('starts a real OpenSSH sshd with its own host key on a free loopback port, and stops it', async () => {
    const sshd = await startSshd();
    expect(sshd.host).toBe('127.0.0.1');
    expect(await banner(sshd.host, sshd.port)).toMatch(/^SSH-2\.0-OpenSSH/);
    expect(sshd.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    expect(sshd.knownHostsLine()).toMatch(new RegExp(`^\\[127\\.0\\.0\\.1\\]:${sshd.port} ssh-ed25519 `));
    sshd.kill();
    await new Promise((r) => setTimeout(r, 200));
    expect(await banner(sshd.host, sshd.port)).toBe('ECONNREFUSED');
    await sshd.restart();
    expect(await banner(sshd.host, sshd.port)).toMatch(/^SSH-2\.0-OpenSSH/);
    sshd.stop();
    expect(existsSync(sshd.dir)).toBe(false);
  });
});

describe('testing/netns', () => {
  it('creates a namespace linked to the host and deletes it with everything inside', async () => {
    const ns = createNetns();
    try {
      expect(namespaces()).toContain(ns.name);
      const sshd = await startSshd({ netns: ns });
      expect(await banner(ns.addr, 22)).toMatch(/^SSH-2\.0-OpenSSH/);
      sshd.stop();
    } finally {
      ns.destroy();
    }
    expect(namespaces()).not.toContain(ns.name);
  });

  it('sweeps cb-* namespaces left by a test process that is gone, and keeps live ones', () => {
    let dead = 4_000_000;
    while (existsSync(`/proc/${dead}`)) dead += 1;
    const stale = `cb-${dead}-0`;
    execFileSync('ip', ['netns', 'add', stale]);
    const mine = createNetns();
    try {
      sweepStaleNetns();
      expect(namespaces()).not.toContain(stale);
      expect(namespaces()).toContain(mine.name);
    } finally {
      mine.destroy();
    }
  });
});
