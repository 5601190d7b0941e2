import { describe, expect, it } from 'vitest';
import { runCli } from '../../testing/cli';
import { LOCKED_PASSPHRASE, useBastion } from '../core/pool/sshTestKit';

// Host → jump host's namespace → bastion's namespace (its Redis on the bastion's 127.0.0.1): the host has no
// route to the bastion, so only a two-hop tunnel reaches that Redis.
const bastion = useBastion({ behindJump: true });
const PORT = 17679;

describe('cacheboard … --ssh-jump', () => {
  it('reaches a Redis behind a bastion only a jump host can reach, with a passphrase key for both hops', async () => {
    const b = bastion();
    const jump = b.jump!.sshd;
    await b.redis(PORT);
    b.cli(['-p', String(PORT), 'SET', 'marker', 'behind-two-hops']);
    const base = ['keys', 'get', 'marker', '--json', '--url', `redis://127.0.0.1:${PORT}`, '--ssh', `root@${b.sshd.host}:${b.sshd.port}`];
    const flags = ['--ssh-key', b.lockedKey.privateFile, '--ssh-known-hosts', b.knownHosts];
    const env = { CACHEBOARD_SSH_PASSPHRASE: LOCKED_PASSPHRASE };

    const r = await runCli([...base, '--ssh-jump', `root@${jump.host}:${jump.port}`, ...flags], undefined, env);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('behind-two-hops');
    expect(r.out + r.err).not.toContain(LOCKED_PASSPHRASE);

    // Without the jump the bastion is out of reach: the same command fails, naming the SSH server, not Redis.
    const direct = await runCli([...base, ...flags], undefined, env);
    expect(direct.code).not.toBe(0);
    expect(direct.out).not.toContain('behind-two-hops');
    // A lost handshake or no answer yet, depending on the network's timing; either names SSH and the server.
    expect(direct.err).toMatch(/SSH (connection to|tunnel through)/);
    expect(direct.err).toContain(`${b.sshd.host}:${b.sshd.port}`);
  }, 60_000);
});
