import { createHash, createHmac } from 'node:crypto';
import { matchPatternList } from './hostPattern';
import { HostKeyError } from './hostKeyError';

/** A key as OpenSSH prints it: `SHA256:` and the unpadded base64 of the key blob's SHA-256. */
export function fingerprint(keyBlob: Buffer): string {
  return `SHA256:${createHash('sha256').update(keyBlob).digest('base64').replace(/=+$/, '')}`;
}

/** A host without the brackets a URL puts around an IPv6 address ("[::1]" as "::1"). */
function bareHost(host: string): string {
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

/**
 * The name known_hosts stores, as OpenSSH writes it: the plain host on port 22 (an IPv6 address
 * too: `::1`), `[host]:port` elsewhere (`[::1]:2222`). A host given bracketed is the same host.
 */
export function knownHostsName(host: string, port: number): string {
  const bare = bareHost(host);
  return port === 22 ? bare : `[${bare}]:${port}`;
}

/** A pin's name, as the profile names it: "host:port", an IPv6 address bracketed whatever the port ("[::1]:22"). */
export function pinName(host: string, port: number): string {
  const bare = bareHost(host);
  return bare.includes(':') ? `[${bare}]:${port}` : `${bare}:${port}`;
}

interface KnownKey {
  marker: '' | '@revoked' | '@cert-authority';
  keyType: string;
  blob: Buffer;
}

/** The known_hosts entries naming this host (plain patterns, negations and hashed `|1|salt|hmac` names). */
export function keysForHost(text: string, host: string, port: number): KnownKey[] {
  const name = knownHostsName(host, port);
  const out: KnownKey[] = [];
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const fields = line.split(/\s+/);
    let marker: KnownKey['marker'] = '';
    if (fields[0] === '@revoked' || fields[0] === '@cert-authority') marker = fields.shift() as KnownKey['marker'];
    const [hosts, keyType, base64] = fields;
    if (hosts === undefined || keyType === undefined || base64 === undefined) continue;
    if (!hostsFieldMatches(hosts, name)) continue;
    out.push({ marker, keyType, blob: Buffer.from(base64, 'base64') });
  }
  return out;
}

function hostsFieldMatches(field: string, name: string): boolean {
  if (field.startsWith('|1|')) {
    const [, , salt, hash] = field.split('|');
    if (salt === undefined || hash === undefined) return false;
    return createHmac('sha1', Buffer.from(salt, 'base64')).update(name).digest('base64') === hash;
  }
  return matchPatternList(field.split(','), name);
}

/**
 * Check a presented host key against known_hosts text, as OpenSSH does: a revoked key is refused even when
 * also listed; a listed key passes; a host listed with other keys has "changed"; an unlisted host is "unknown".
 * Certificate authorities are not supported (ssh2 does not verify host certificates), so they count as unlisted.
 */
export function checkKnownHosts(text: string, host: string, port: number, keyBlob: Buffer): HostKeyError | null {
  const presented = fingerprint(keyBlob);
  const keys = keysForHost(text, host, port).filter((k) => k.marker !== '@cert-authority');
  if (keys.some((k) => k.marker === '@revoked' && k.blob.equals(keyBlob))) return new HostKeyError(host, port, presented, 'revoked');
  const plain = keys.filter((k) => k.marker === '');
  if (plain.some((k) => k.blob.equals(keyBlob))) return null;
  const first = plain.find((k) => k.keyType === keyTypeOf(keyBlob)) ?? plain[0];
  if (first === undefined) return new HostKeyError(host, port, presented, 'unknown');
  return new HostKeyError(host, port, presented, 'changed', fingerprint(first.blob));
}

/** The web build's pins: 'host:port' ('[v6]:port') -> 'SHA256:…'. */
export function checkPinned(pinned: Readonly<Record<string, string>>, host: string, port: number, keyBlob: Buffer): HostKeyError | null {
  const presented = fingerprint(keyBlob);
  const expected = pinned[pinName(host, port)];
  if (expected === undefined) return new HostKeyError(host, port, presented, 'unknown');
  if (expected.replace(/=+$/, '') === presented) return null;
  return new HostKeyError(host, port, presented, 'changed', expected);
}

/** The key type named inside an SSH key blob (a length-prefixed string first). */
export function keyTypeOf(keyBlob: Buffer): string {
  if (keyBlob.length < 4) return '';
  const len = keyBlob.readUInt32BE(0);
  return keyBlob.subarray(4, 4 + len).toString('latin1');
}

/**
 * The host key algorithms to offer for a host already in known_hosts: only the types it lists, so a server with
 * an RSA key listed and a newer ed25519 key is asked for RSA, as OpenSSH does, instead of looking "changed".
 */
export function hostKeyAlgorithmsFor(text: string, host: string, port: number): string[] {
  const types = new Set(
    keysForHost(text, host, port)
      .filter((k) => k.marker === '')
      .map((k) => k.keyType),
  );
  const out: string[] = [];
  for (const t of types) out.push(...(t === 'ssh-rsa' ? ['rsa-sha2-512', 'rsa-sha2-256', 'ssh-rsa'] : [t]));
  return out;
}
