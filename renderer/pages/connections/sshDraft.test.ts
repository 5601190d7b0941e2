import { describe, expect, it } from 'vitest';
import { ProfileId } from '../../../app/schemas/common';
import { ProfileDraft, type ProfileView } from '../../../app/schemas/connections';
import { EMPTY_FORM, formFieldOf, formFromProfile, toDraft, type FormValues } from './draft';
import { acceptPin } from './sshDraft';

/** A saved profile as the contract shows it, with the SSH part under test. */
function savedProfile(ssh: ProfileView['ssh']): ProfileView {
  return {
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
    definitionLocked: false,
    readOnlyData: false,
    ssh,
  };
}

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
    const form = formFromProfile(savedProfile({ host: 'b', user: 'ops', auth: { kind: 'password', hasPassword: true }, jumps: [{ host: 'gw', port: 2222 }] }));
    expect(form).toMatchObject({ sshEnabled: true, sshHost: 'b', sshUser: 'ops', sshAuth: 'password', sshSecret: '', sshJumps: 'gw:2222' });
    expect(formFieldOf('draft.ssh.jumps.1.host')).toBe('ssh.jumps');
    expect(formFieldOf('profile.ssh.pinned.b:22')).toBe('ssh.pinned');
    expect(formFieldOf('ssh.auth.keyFile')).toBe('ssh.auth.keyFile');
  });

  const FP_JUMP = `SHA256:${'J'.repeat(43)}`;
  const FP_LAST = `SHA256:${'L'.repeat(43)}`;
  const accept = (v: FormValues, host: string, port: number, fp: string): FormValues => ({ ...v, ...acceptPin(v, host, port, fp) });

  it('pins an accepted key under the address the server reported: a Host alias under its HostName and Port', () => {
    // Typed "prod-bastion" (an ~/.ssh/config alias for 10.0.0.5 port 2222): the check looks up 10.0.0.5:2222.
    const typed: FormValues = { ...EMPTY_FORM, name: 'p', url: 'redis://10.0.3.7:6379', sshEnabled: true, sshHost: 'prod-bastion' };
    const form = accept(typed, '10.0.0.5', 2222, FP_LAST);
    expect(form.sshPinned).toBe(FP_LAST);
    expect(toDraft(form).ssh?.pinned).toEqual({ '10.0.0.5:2222': FP_LAST });
    expect(ProfileDraft.safeParse(toDraft(form)).success).toBe(true);
  });

  it('keeps a jump host accepted first when the last server is accepted next, and both go in the draft', () => {
    const typed: FormValues = {
      ...EMPTY_FORM,
      name: 'p',
      url: 'redis://10.0.3.7:6379',
      sshEnabled: true,
      sshHost: '10.0.0.5',
      sshJumps: 'ops@gw.example.com:2222',
    };
    const afterJump = accept(typed, 'gw.example.com', 2222, FP_JUMP);
    const both = accept(afterJump, '10.0.0.5', 22, FP_LAST);
    expect(both.sshPins).toEqual({ 'gw.example.com:2222': FP_JUMP });
    expect(toDraft(both).ssh?.pinned).toEqual({ 'gw.example.com:2222': FP_JUMP, '10.0.0.5:22': FP_LAST });
    // Accepting the same address again replaces its pin, never duplicates it.
    expect(toDraft(accept(both, 'gw.example.com', 2222, FP_LAST)).ssh?.pinned).toEqual({ 'gw.example.com:2222': FP_LAST, '10.0.0.5:22': FP_LAST });
  });

  it("keeps a saved profile's pins that the field does not show (an alias's, a jump's) on save", () => {
    const form = formFromProfile(savedProfile({ host: 'prod-bastion', auth: { kind: 'agent' }, pinned: { '10.0.0.5:2222': FP_LAST, 'gw:22': FP_JUMP } }));
    expect(form.sshPinned).toBe('');
    expect(toDraft(form).ssh?.pinned).toEqual({ '10.0.0.5:2222': FP_LAST, 'gw:22': FP_JUMP });
  });
});
