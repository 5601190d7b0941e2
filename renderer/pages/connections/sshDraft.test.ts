import { describe, expect, it } from 'vitest';
import { ProfileId } from '../../../app/schemas/common';
import { ProfileDraft } from '../../../app/schemas/connections';
import { EMPTY_FORM, formFieldOf, formFromProfile, toDraft } from './draft';

describe('the SSH section of the Connections form', () => {
  it('sends the SSH server, its login, jumps in order and a pin, as the contract takes them', () => {
    const draft = toDraft({
      ...EMPTY_FORM,
      name: 'p',
      url: 'redis://10.0.3.7:6379',
      sshEnabled: true,
      sshHost: 'bastion',
      sshPort: '2200',
      sshUser: 'ops',
      sshAuth: 'key',
      sshKeyFile: '~/.ssh/id_prod',
      sshSecret: 'pp',
      sshJumps: 'ops@gw:2222, [::1]:22 plain',
      sshPinned: `SHA256:${'A'.repeat(43)}`,
    });
    expect(draft.ssh).toEqual({
      host: 'bastion',
      port: 2200,
      user: 'ops',
      auth: { kind: 'key', keyFile: '~/.ssh/id_prod', passphrase: 'pp' },
      jumps: [{ host: 'gw', port: 2222, user: 'ops' }, { host: '::1', port: 22 }, { host: 'plain' }],
      pinned: { 'bastion:2200': `SHA256:${'A'.repeat(43)}` },
    });
    expect(ProfileDraft.safeParse(draft).success).toBe(true);
  });

  it('sends no SSH with the section off, and no secret when the field is left empty (the stored one stays)', () => {
    expect(toDraft({ ...EMPTY_FORM, name: 'p', sshHost: 'b' }).ssh).toBeUndefined();
    expect(toDraft({ ...EMPTY_FORM, name: 'p', sshEnabled: true, sshHost: 'b', sshAuth: 'password' }).ssh?.auth).toEqual({ kind: 'password' });
  });

  it('fills the form from a saved profile, secrets left empty, and routes SSH errors to their inputs', () => {
    const form = formFromProfile({
      id: ProfileId.parse('x'),
      name: 'p',
      host: 'h',
      port: 6379,
      db: 0,
      hasPassword: false,
      tls: { enabled: false, rejectUnauthorized: true },
      source: 'user',
      analystAccess: 'shared',
      hasAnalystPassword: false,
      readOnly: false,
      ssh: { host: 'b', user: 'ops', auth: { kind: 'password', hasPassword: true }, jumps: [{ host: 'gw', port: 2222 }] },
    });
    expect(form).toMatchObject({ sshEnabled: true, sshHost: 'b', sshUser: 'ops', sshAuth: 'password', sshSecret: '', sshJumps: 'gw:2222' });
    expect(formFieldOf('draft.ssh.jumps.1.host')).toBe('ssh.jumps');
    expect(formFieldOf('profile.ssh.pinned.b:22')).toBe('ssh.pinned');
    expect(formFieldOf('ssh.auth.keyFile')).toBe('ssh.auth.keyFile');
  });
});
