import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HostKeyError } from './hostKeyError';
import { checkKnownHosts, checkPinned, fingerprint, hostKeyAlgorithmsFor } from './knownHosts';

const dir = mkdtempSync(join(tmpdir(), 'cacheboard-knownhosts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A real key pair from ssh-keygen: its public line and the fingerprint OpenSSH prints for it. */
function hostKey(name: string, type = 'ed25519'): { line: string; blob: Buffer; printed: string } {
  const file = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', type, '-N', '', '-f', file]);
  const line = readFileSync(`${file}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
  const printed = execFileSync('ssh-keygen', ['-lf', `${file}.pub`], { encoding: 'utf8' }).split(' ')[1] ?? '';
  return { line, blob: Buffer.from(line.split(' ')[1] ?? '', 'base64'), printed };
}

const a = hostKey('a');
const b = hostKey('b');
const rsa = hostKey('r', 'rsa');

describe('known_hosts verification', () => {
  it('prints fingerprints exactly as ssh-keygen -l does', () => {
    expect(fingerprint(a.blob)).toBe(a.printed);
    expect(fingerprint(rsa.blob)).toBe(rsa.printed);
  });

  it('accepts a listed key, on port 22 by name and elsewhere as [host]:port', () => {
    const text = `cache.example.com,10.0.0.5 ${a.line}\n[cache.example.com]:2222 ${b.line}\n`;
    expect(checkKnownHosts(text, 'cache.example.com', 22, a.blob)).toBeNull();
    expect(checkKnownHosts(text, '10.0.0.5', 22, a.blob)).toBeNull();
    expect(checkKnownHosts(text, 'cache.example.com', 2222, b.blob)).toBeNull();
  });

  it('calls an unlisted host unknown (a port-22 entry does not cover another port)', () => {
    const err = checkKnownHosts(`cache.example.com ${a.line}\n`, 'cache.example.com', 2222, a.blob);
    expect(err).toBeInstanceOf(HostKeyError);
    expect(err).toMatchObject({ reason: 'unknown', presented: a.printed, host: 'cache.example.com', port: 2222 });
    expect(err?.expected).toBeUndefined();
  });

  it('refuses a changed key and names both fingerprints', () => {
    const err = checkKnownHosts(`cache.example.com ${a.line}\n`, 'cache.example.com', 22, b.blob);
    expect(err).toMatchObject({ reason: 'changed', presented: b.printed, expected: a.printed });
    expect(err?.message).toContain(a.printed);
    expect(err?.message).toContain(b.printed);
  });

  it('reads hashed entries written by ssh-keygen -H', () => {
    const file = join(dir, 'hashed');
    writeFileSync(file, `cache.example.com ${a.line}\n[cache.example.com]:2222 ${b.line}\n`);
    execFileSync('ssh-keygen', ['-q', '-H', '-f', file], { stdio: 'pipe' });
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain('cache.example.com');
    expect(checkKnownHosts(text, 'cache.example.com', 22, a.blob)).toBeNull();
    expect(checkKnownHosts(text, 'cache.example.com', 2222, b.blob)).toBeNull();
    expect(checkKnownHosts(text, 'cache.example.com', 22, b.blob)).toMatchObject({ reason: 'changed', expected: a.printed });
    expect(checkKnownHosts(text, 'other.example.com', 22, a.blob)).toMatchObject({ reason: 'unknown' });
  });

  it('refuses a @revoked key even when it is also listed', () => {
    const text = `@revoked * ${a.line}\ncache.example.com ${a.line}\n`;
    expect(checkKnownHosts(text, 'cache.example.com', 22, a.blob)).toMatchObject({ reason: 'revoked' });
  });

  it('honours wildcard and negated host patterns', () => {
    const text = `*.example.com,!evil.example.com ${a.line}\n`;
    expect(checkKnownHosts(text, 'cache.example.com', 22, a.blob)).toBeNull();
    expect(checkKnownHosts(text, 'evil.example.com', 22, a.blob)).toMatchObject({ reason: 'unknown' });
  });

  it('offers only the key types a host is listed with, so a listed RSA key is asked for', () => {
    expect(hostKeyAlgorithmsFor(`h ${rsa.line}\n`, 'h', 22)).toEqual(['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa']);
    expect(hostKeyAlgorithmsFor(`h ${a.line}\n`, 'other', 22)).toEqual([]);
  });

  it('checks pinned fingerprints for the web build', () => {
    expect(checkPinned({ 'h:22': a.printed }, 'h', 22, a.blob)).toBeNull();
    expect(checkPinned({ 'h:22': a.printed }, 'h', 22, b.blob)).toMatchObject({ reason: 'changed', expected: a.printed, presented: b.printed });
    expect(checkPinned({ 'h:22': a.printed }, 'h', 2222, a.blob)).toMatchObject({ reason: 'unknown' });
  });
});

describe('an IPv6 SSH host', () => {
  const v6a = hostKey('v6a');
  const v6b = hostKey('v6b');
  // As OpenSSH writes them: the plain address on port 22, bracketed with the port elsewhere.
  const file = join(dir, 'known_hosts_v6');
  writeFileSync(file, `::1 ${v6a.line}\n[::1]:2222 ${v6b.line}\n[2001:db8::5]:2200 ${v6a.line}\n`);
  const text = readFileSync(file, 'utf8');

  it('finds the lines OpenSSH finds for port 22 and for another port, the host given bare or bracketed', () => {
    // ssh-keygen -F looks the names up as ssh does: the same lines must answer.
    expect(execFileSync('ssh-keygen', ['-F', '::1', '-f', file], { encoding: 'utf8' })).toContain(v6a.line);
    expect(execFileSync('ssh-keygen', ['-F', '[::1]:2222', '-f', file], { encoding: 'utf8' })).toContain(v6b.line);
    for (const host of ['::1', '[::1]']) {
      expect(checkKnownHosts(text, host, 22, v6a.blob)).toBeNull();
      expect(checkKnownHosts(text, host, 2222, v6b.blob)).toBeNull();
      expect(checkKnownHosts(text, host, 2222, v6a.blob)?.reason).toBe('changed');
    }
    expect(checkKnownHosts(text, '[2001:db8::5]', 2200, v6a.blob)).toBeNull();
    expect(checkKnownHosts(text, '2001:db8::5', 22, v6a.blob)?.reason).toBe('unknown');
  });

  it('finds hashed lines (ssh-keygen -H) by the same names', () => {
    const hashed = join(dir, 'known_hosts_v6_hashed');
    writeFileSync(hashed, text);
    execFileSync('ssh-keygen', ['-H', '-f', hashed], { stdio: 'ignore' });
    const h = readFileSync(hashed, 'utf8');
    expect(h).not.toContain('::1');
    expect(checkKnownHosts(h, '[::1]', 22, v6a.blob)).toBeNull();
    expect(checkKnownHosts(h, '::1', 2222, v6b.blob)).toBeNull();
  });

  it('a pin names an IPv6 host bracketed, on port 22 too', () => {
    const pinned = { '[::1]:22': v6a.printed, '[::1]:2222': v6b.printed };
    for (const host of ['::1', '[::1]']) {
      expect(checkPinned(pinned, host, 22, v6a.blob)).toBeNull();
      expect(checkPinned(pinned, host, 2222, v6b.blob)).toBeNull();
      expect(checkPinned(pinned, host, 2222, v6a.blob)?.reason).toBe('changed');
    }
  });
});
