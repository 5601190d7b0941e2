import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { clusterBehind, LOCKED_PASSPHRASE, useBastion } from '../core/pool/sshTestKit';

const bastion = useBastion();
const STANDALONE = 17379;
const CLUSTER = [17001, 17002, 17003];

/** The --ssh flags for the bastion, with the plain key unless others are given. */
function sshFlags(...extra: string[]): string[] {
  const b = bastion();
  const key = extra.includes('--ssh-key') ? [] : ['--ssh-key', b.key.privateFile];
  const hosts = extra.includes('--ssh-known-hosts') ? [] : ['--ssh-known-hosts', b.knownHosts];
  return ['--ssh', `root@${b.sshd.host}:${b.sshd.port}`, ...key, ...hosts, ...extra];
}

describe('cacheboard … --ssh', () => {
  it('info reaches a Redis only the SSH server can reach, with a passphrase key; the passphrase shows nowhere', async () => {
    await bastion().redis(STANDALONE);
    bastion().cli(['-p', String(STANDALONE), 'SET', 'marker', 'behind-bastion']);
    const r = await runCli(
      ['info', '--json', '--url', `redis://127.0.0.1:${STANDALONE}`, ...sshFlags('--ssh-key', bastion().lockedKey.privateFile)],
      undefined,
      { CACHEBOARD_SSH_PASSPHRASE: LOCKED_PASSPHRASE },
    );
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.stringify(JSON.parse(r.out))).toMatch(/keys/);
    expect(r.out + r.err).not.toContain(LOCKED_PASSPHRASE);
    // Without the tunnel nothing answers there: the same command without --ssh fails.
    const direct = await runCli(['info', '--json', '--url', `redis://127.0.0.1:${STANDALONE}`]);
    expect(direct.code).not.toBe(0);
  }, 30_000);

  it('reads a Host alias, its HostName, User, Port and IdentityFile, from --ssh-config', async () => {
    const b = bastion();
    const config = join(b.dir, 'ssh_config');
    writeFileSync(config, `Host wire-bastion\n  HostName ${b.sshd.host}\n  Port ${b.sshd.port}\n  User root\n  IdentityFile ${b.key.privateFile}\n`);
    const r = await runCli([
      'keys',
      'get',
      'marker',
      '--json',
      '--url',
      `redis://127.0.0.1:${STANDALONE}`,
      '--ssh',
      'wire-bastion',
      '--ssh-config',
      config,
      '--ssh-known-hosts',
      b.knownHosts,
    ]);
    expect(r.err).toBe('');
    expect(r.out).toContain('behind-bastion');
  }, 30_000);

  it('refuses an unknown host key, naming its SHA256 fingerprint, and connects to nothing', async () => {
    const r = await runCli(['info', '--url', `redis://127.0.0.1:${STANDALONE}`, ...sshFlags('--ssh-known-hosts', '/dev/null')]);
    expect(r.code).not.toBe(0);
    expect(r.out).toContain(`SSH host ${bastion().sshd.host} is not known; its host key fingerprint is ${bastion().sshd.fingerprint}`);
  }, 30_000);

  it('walks and deletes keys on all three masters of a cluster behind one bastion', async () => {
    await clusterBehind(bastion(), CLUSTER);
    for (let i = 0; i < 90; i++) bastion().cli(['-c', '-p', String(CLUSTER[0]), 'SET', `k:${i}`, 'x']);
    for (const p of CLUSTER)
      expect(
        Number(
          bastion()
            .cli(['-p', String(p), 'DBSIZE'])
            .trim(),
        ),
      ).toBeGreaterThan(0);
    const url = ['--url', `redis://127.0.0.1:${CLUSTER[0] ?? 0}`, '--cluster'];
    const del = await runCli(['keys', 'delete', '--match', 'k:*', '--yes', '--json', ...url, ...sshFlags()]);
    expect(del.err).toBe('');
    expect(JSON.parse(del.out)).toMatchObject({ matched: 90, deleted: 90, errors: 0 });
    for (const p of CLUSTER)
      expect(
        bastion()
          .cli(['-p', String(p), 'DBSIZE'])
          .trim(),
      ).toBe('0');
  }, 60_000);

  it('names the flag of a bad or lone --ssh* value', async () => {
    const url = ['--url', 'redis://127.0.0.1:1'];
    const lone = await runCli(['info', ...url, '--ssh-key', '/nonexistent']);
    expect(lone.code).not.toBe(0);
    expect(lone.err).toContain('--ssh-key needs --ssh');
    const bad = await runCli(['info', ...url, '--ssh', 'root@bastion:99999']);
    expect(bad.err).toMatch(/--ssh .*port must be between 1 and 65535/);
    const jump = await runCli(['info', ...url, '--ssh', 'bastion', '--ssh-jump', '@j']);
    expect(jump.err).toContain('--ssh-jump');
    const both = await runCli(['info', ...url, '--ssh', 'bastion', '--ssh-key', 'k', '--ssh-password-stdin']);
    expect(both.err).toContain('--ssh-password-stdin and --ssh-key exclude each other');
  }, 30_000);
});
