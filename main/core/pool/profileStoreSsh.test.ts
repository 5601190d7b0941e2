import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ProfileDraft, ProfileView, type ProfileSpec } from '../../../app/schemas/connections';
import { aesSecretBox } from './aesSecretBox';
import { ProfileStore } from './profileStore';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function store(): ProfileStore {
  const d = mkdtempSync(join(tmpdir(), 'cacheboard-store-ssh-'));
  dirs.push(d);
  return new ProfileStore({ dataDir: d, secretBox: aesSecretBox('test-key-0123456789abcdef') });
}

const PASSPHRASE = 'key-Passphrase-8812';
const JUMP_PASSWORD = 'jump-Password-4471';
const FP = `SHA256:${'A'.repeat(43)}`;

function spec(ssh: Record<string, unknown>): ProfileSpec {
  return ProfileDraft.parse({ name: 'behind', url: 'redis://10.0.3.7:6379', ssh });
}
const through = {
  host: 'bastion.example.com',
  user: 'ops',
  auth: { kind: 'key', keyFile: '~/.ssh/id_prod', passphrase: PASSPHRASE },
  jumps: [{ host: 'gw.example.com', port: 2222, auth: { kind: 'password', password: JUMP_PASSWORD } }],
};

describe('SSH secrets in the profile store', () => {
  it('seals the passphrase and the jump password in profiles.json, gives them back to the Node side, and never in a view', () => {
    const s = store();
    const p = s.add(spec(through));
    const file = readFileSync(s.file, 'utf8');
    expect(file).not.toContain(PASSPHRASE);
    expect(file).not.toContain(JUMP_PASSWORD);
    expect(s.get(p.id)?.spec.ssh).toEqual(spec(through).ssh);
    const view = ProfileView.parse(s.view(p));
    const text = JSON.stringify(view);
    expect(text).not.toContain(PASSPHRASE);
    expect(text).not.toContain(JUMP_PASSWORD);
    expect(view.ssh).toMatchObject({
      host: 'bastion.example.com',
      auth: { kind: 'key', keyFile: '~/.ssh/id_prod', hasPassphrase: true },
      jumps: [{ host: 'gw.example.com', port: 2222, auth: { kind: 'password', hasPassword: true } }],
    });
  });

  it('keeps stored SSH secrets on an edit that leaves the SSH servers as they were (a first pin too), drops them when a server or a pin changes', () => {
    const s = store();
    const p = s.add(spec(through));
    const noSecrets = {
      ...through,
      auth: { kind: 'key', keyFile: '~/.ssh/id_prod' },
      jumps: [{ host: 'gw.example.com', port: 2222, auth: { kind: 'password' } }],
    };
    const pinned = s.update(p.id, spec({ ...noSecrets, pinned: { 'bastion.example.com:22': FP } }));
    expect(pinned.spec.ssh?.auth).toEqual({ kind: 'key', keyFile: '~/.ssh/id_prod', passphrase: PASSPHRASE });
    expect(pinned.spec.ssh?.jumps?.[0]?.auth).toEqual({ kind: 'password', password: JUMP_PASSWORD });

    const repinned = s.update(p.id, spec({ ...noSecrets, pinned: { 'bastion.example.com:22': `SHA256:${'B'.repeat(43)}` } }));
    expect(repinned.spec.ssh?.auth).toEqual({ kind: 'key', keyFile: '~/.ssh/id_prod' });

    s.update(p.id, spec(through));
    const moved = s.update(p.id, spec({ ...noSecrets, host: 'elsewhere.example.com' }));
    expect(moved.spec.ssh?.auth).toEqual({ kind: 'key', keyFile: '~/.ssh/id_prod' });
    expect(moved.spec.ssh?.jumps?.[0]?.auth).toEqual({ kind: 'password' });
    // The Redis password goes with them: a new bastion could read it off the tunnel.
    const withPw = s.update(p.id, { ...spec(through), password: 'redis-pw' });
    expect(s.update(p.id, spec({ ...noSecrets, host: 'other.example.com' })).spec.password).toBeUndefined();
    expect(withPw.spec.password).toBe('redis-pw');
  });

  it('names the field of a bad SSH setting', () => {
    const issue = (ssh: unknown) => {
      const r = ProfileDraft.safeParse({ name: 'x', url: 'redis://h:1', ssh });
      return r.success ? undefined : { path: r.error.issues[0]?.path.join('.'), message: r.error.issues[0]?.message };
    };
    expect(issue({})).toEqual({ path: 'ssh.host', message: 'ssh.host is required (or a configHost from ~/.ssh/config)' });
    expect(issue({ host: 'b', configHost: 'prod' })?.path).toBe('ssh.configHost');
    expect(issue({ host: 'b', port: 0 })?.path).toBe('ssh.port');
    expect(issue({ host: 'b', auth: { kind: 'key', keyFile: '' } })?.path).toBe('ssh.auth.keyFile');
    expect(issue({ host: 'b', jumps: [{ host: 'bad host' }] })?.path).toBe('ssh.jumps.0.host');
    expect(issue({ host: 'b', pinned: { 'b:22': 'MD5:aa' } })?.path).toBe('ssh.pinned.b:22');
    expect(issue({ host: 'b', user: 'a@b' })?.path).toBe('ssh.user');
  });
});
