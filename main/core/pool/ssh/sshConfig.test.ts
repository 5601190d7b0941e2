import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { routeFromSshConfig } from './sshConfig';

const dir = mkdtempSync(join(tmpdir(), 'cacheboard-sshconfig-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function configFile(text: string): string {
  const file = join(dir, `config-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, text);
  return file;
}

const CONFIG = configFile(`
# Global defaults come first in real files, but OpenSSH reads top to bottom and keeps the first value.
Host prod-cache
  HostName 10.0.0.5
  User deploy
  Port 2200
  IdentityFile ~/.ssh/prod_key
  ProxyJump bastion

Host bastion
  HostName bastion.example.com
  User jump
  IdentityFile=%d/.ssh/jump_%h

Host *.internal !secret.internal
  User internal-user
  ProxyJump none

Host db?
  Port 2022

Host "quoted host"
  HostName quoted.example.com

Host *
  User fallback
  Port 22
`);

describe('routeFromSshConfig', () => {
  it('resolves an alias with HostName, User, Port, IdentityFile (~ expanded) and its ProxyJump as a first hop', async () => {
    const route = await routeFromSshConfig('prod-cache', { configFile: CONFIG });
    expect(route.hops.map(({ host, port, user, keyFile }) => ({ host, port, user, keyFile }))).toEqual([
      { host: 'bastion.example.com', port: 22, user: 'jump', keyFile: join(homedir(), '.ssh', 'jump_bastion') },
      { host: '10.0.0.5', port: 2200, user: 'deploy', keyFile: join(homedir(), '.ssh', 'prod_key') },
    ]);
  });

  it('keeps the first value of a keyword: a later "Host *" does not override, but fills what is missing', async () => {
    const [only] = (await routeFromSshConfig('plainhost', { configFile: CONFIG })).hops;
    expect(only).toMatchObject({ host: 'plainhost', user: 'fallback', port: 22 });
    const [prod] = (await routeFromSshConfig('prod-cache', { configFile: CONFIG })).hops.slice(-1);
    expect(prod).toMatchObject({ user: 'deploy', port: 2200 });
  });

  it('matches * and ? patterns, and a !negated pattern vetoes the block', async () => {
    expect((await routeFromSshConfig('cache.internal', { configFile: CONFIG })).hops).toEqual([
      expect.objectContaining({ host: 'cache.internal', user: 'internal-user' }),
    ]);
    expect((await routeFromSshConfig('secret.internal', { configFile: CONFIG })).hops[0]).toMatchObject({ user: 'fallback' });
    expect((await routeFromSshConfig('db1', { configFile: CONFIG })).hops[0]).toMatchObject({ port: 2022 });
    expect((await routeFromSshConfig('db12', { configFile: CONFIG })).hops[0]).toMatchObject({ port: 22 });
  });

  it('lets user@host:port on the command line win over the config', async () => {
    const route = await routeFromSshConfig('ops@prod-cache:2300', { configFile: CONFIG });
    expect(route.hops[1]).toMatchObject({ host: '10.0.0.5', user: 'ops', port: 2300 });
  });

  it('takes --ssh-jump hops in order instead of the ProxyJump of the target', async () => {
    const route = await routeFromSshConfig('prod-cache', { configFile: CONFIG, jumps: ['a@one:2201', 'bastion'] });
    expect(route.hops.map((h) => `${h.user ?? ''}@${h.host}:${h.port ?? 22}`)).toEqual(['a@one:2201', 'jump@bastion.example.com:22', 'deploy@10.0.0.5:2200']);
  });

  it('reads a comma list in ProxyJump and follows the first jump’s own ProxyJump', async () => {
    const file = configFile(`
Host target
  ProxyJump j1,j2:2222
Host j1
  ProxyJump j0
Host j2
  ProxyJump ignored-as-in-openssh
`);
    const route = await routeFromSshConfig('target', { configFile: file });
    expect(route.hops.map((h) => `${h.host}:${h.port ?? 22}`)).toEqual(['j0:22', 'j1:22', 'j2:2222', 'target:22']);
  });

  it('refuses a ProxyJump loop instead of recursing forever', async () => {
    const file = configFile('Host a\n  ProxyJump b\nHost b\n  ProxyJump a\n');
    await expect(routeFromSshConfig('a', { configFile: file })).rejects.toThrow(/loop/);
  });

  it('reads quoted values and key=value lines', async () => {
    expect((await routeFromSshConfig('quoted host', { configFile: CONFIG })).hops[0]).toMatchObject({ host: 'quoted.example.com' });
  });

  it('fails when a named config file is missing, and takes IPv6 hosts in brackets', async () => {
    await expect(routeFromSshConfig('x', { configFile: join(dir, 'nope') })).rejects.toThrow(/ENOENT/);
    const empty = configFile('');
    expect((await routeFromSshConfig('root@[::1]:2022', { configFile: empty })).hops[0]).toMatchObject({ host: '::1', port: 2022, user: 'root' });
  });
});
