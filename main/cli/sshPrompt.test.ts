import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cliArgs, runCli } from '../../testing/cli';
import { LOCKED_PASSPHRASE, useBastion } from '../core/pool/sshTestKit';

const bastion = useBastion();
const PORT = 17879;

const quote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * `cacheboard …` on a terminal (a pty from util-linux `script`), with CACHEBOARD_SSH_PASSPHRASE
 * unset; `answer` is typed once the passphrase prompt shows. Resolves with the whole transcript.
 */
function onTerminal(args: string[], answer: string): Promise<{ code: number | null; screen: string }> {
  const { CACHEBOARD_SSH_PASSPHRASE: _unset, ...env } = process.env;
  const command = [process.execPath, ...cliArgs(...args)].map(quote).join(' ');
  const child = spawn('script', ['-qefc', command, '/dev/null'], { env, stdio: 'pipe' });
  let screen = '';
  let typed = false;
  child.stdout.on('data', (d: Buffer) => {
    screen += d.toString();
    if (!typed && screen.includes('Enter passphrase for key')) {
      typed = true;
      child.stdin.write(`${answer}\r`);
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, screen }));
  });
}

describe('cacheboard … --ssh-key with an encrypted key and no CACHEBOARD_SSH_PASSPHRASE', () => {
  it('asks for the passphrase on a terminal, without echo, and connects', async () => {
    const b = bastion();
    await b.redis(PORT);
    b.cli(['-p', String(PORT), 'SET', 'marker', 'asked-on-the-tty']);
    const args = ['keys', 'get', 'marker', '--url', `redis://127.0.0.1:${PORT}`, '--ssh', `root@${b.sshd.host}:${b.sshd.port}`];
    const flags = ['--ssh-key', b.lockedKey.privateFile, '--ssh-known-hosts', b.knownHosts];
    const r = await onTerminal([...args, ...flags], LOCKED_PASSPHRASE);
    expect(r.screen).toContain(`Enter passphrase for key '${b.lockedKey.privateFile}': `);
    expect(r.screen).toContain('asked-on-the-tty');
    expect(r.code).toBe(0);
    // Typed in raw mode: the terminal never showed it.
    expect(r.screen).not.toContain(LOCKED_PASSPHRASE);

    // No terminal (a cron job): nothing is asked, and the login fails naming the SSH key.
    const cron = await runCli([...args, ...flags], undefined, { CACHEBOARD_SSH_PASSPHRASE: '' });
    expect(cron.code).not.toBe(0);
    expect(cron.out + cron.err).not.toContain('Enter passphrase');
    expect(cron.out + cron.err).toMatch(/SSH key/);
  }, 60_000);
});
