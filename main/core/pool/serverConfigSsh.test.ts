import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Pool } from './pool';
import { loadServerConfig } from './serverConfig';
import { closeAllTunnels } from './sshVia';
import { LOCKED_PASSPHRASE, useBastion } from './sshTestKit';

// The bastion hangs off the jump host's namespace: only a two-hop tunnel reaches its Redis.
const bastion = useBastion({ behindJump: true });
const PORT = 17779;

/** A config file with one profile through the jump host and the bastion; `auth` per hop as given. */
function configFile(name: string, auth: { last: object; jump: object }): string {
  const b = bastion();
  const jump = b.jump!.sshd;
  const file = join(b.dir, name);
  const ssh = {
    host: b.sshd.host,
    port: b.sshd.port,
    user: 'root',
    auth: auth.last,
    jumps: [{ host: jump.host, port: jump.port, user: 'root', auth: auth.jump }],
    knownHostsFile: b.knownHosts,
  };
  writeFileSync(file, JSON.stringify({ profiles: [{ id: 'behind', name: 'behind', url: `redis://127.0.0.1:${PORT}`, ssh }] }));
  return file;
}

describe('a config-file profile through SSH', () => {
  it('goes through a jump host (ProxyJump) with the key passphrases from an env var and a secret file', async () => {
    const b = bastion();
    await b.redis(PORT);
    b.cli(['-p', String(PORT), 'SET', 'marker', 'behind-two-hops']);
    const secretFile = join(b.dir, 'ssh-passphrase');
    writeFileSync(secretFile, `${LOCKED_PASSPHRASE}\n`);
    const file = configFile('two-hops.json', {
      last: { kind: 'key', keyFile: b.lockedKey.privateFile, passphraseEnv: 'CB_TEST_SSH_PASS' },
      jump: { kind: 'key', keyFile: b.lockedKey.privateFile, passphraseFile: secretFile },
    });
    const [profile] = loadServerConfig(file, { CB_TEST_SSH_PASS: LOCKED_PASSPHRASE });
    expect(profile?.spec.ssh?.auth).toEqual({ kind: 'key', keyFile: b.lockedKey.privateFile, passphrase: LOCKED_PASSPHRASE });
    const pool = new Pool({ resolve: (id) => (id === 'behind' ? profile : undefined) });
    try {
      expect(await pool.test(profile!.spec)).toMatchObject({ ok: true, role: 'master' });
      expect(await (await pool.shared('behind')).get('marker')).toBe('behind-two-hops');
    } finally {
      await pool.shutdown();
      await closeAllTunnels();
    }
  }, 60_000);

  it('names the file and the field when a secret source is missing or given twice', () => {
    const b = bastion();
    const unset = configFile('unset.json', {
      last: { kind: 'key', keyFile: b.lockedKey.privateFile, passphraseEnv: 'CB_TEST_SSH_UNSET' },
      jump: { kind: 'password', passwordFile: join(b.dir, 'no-such-file') },
    });
    expect(() => loadServerConfig(unset, {})).toThrow(
      new RegExp(
        `${unset}: profiles\\[0\\]\\.ssh\\.auth\\.passphraseEnv: environment variable CB_TEST_SSH_UNSET is not set\\n` +
          `${unset}: profiles\\[0\\]\\.ssh\\.jumps\\[0\\]\\.auth\\.passwordFile: cannot read .*no-such-file: ENOENT`,
      ),
    );
    const twice = configFile('twice.json', {
      last: { kind: 'password', password: 'inline', passwordEnv: 'CB_TEST_SSH_PW' },
      jump: { kind: 'agent' },
    });
    expect(() => loadServerConfig(twice, { CB_TEST_SSH_PW: 'x' })).toThrow(
      'profiles[0].ssh.auth: give the password one way only: password, passwordEnv or passwordFile',
    );
    const wrongKind = configFile('kind.json', { last: { kind: 'agent', passphraseEnv: 'CB_TEST_SSH_PW' }, jump: { kind: 'agent' } });
    expect(() => loadServerConfig(wrongKind, { CB_TEST_SSH_PW: 'x' })).toThrow('profiles[0].ssh.auth');
  });
});
