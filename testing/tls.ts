import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TlsFiles {
  dir: string;
  caFile: string;
  certFile: string;
  keyFile: string;
  /** A second CA that did not sign the server certificate. */
  otherCaFile: string;
  remove(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

function makeCa(dir: string, name: string): void {
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.crt`], dir);
}

/** A server certificate `<stem>.crt` (key `<stem>.key`) signed by the CA `ca`, naming `san` (e.g. "DNS:a.test,IP:10.0.0.1"). */
function signServer(dir: string, stem: string, san: string, cn: string): void {
  writeFileSync(join(dir, `${stem}.ext`), `subjectAltName=${san}\n`);
  openssl(['req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${cn}`, '-keyout', `${stem}.key`, '-out', `${stem}.csr`], dir);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      `${stem}.csr`,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-days',
      '2',
      '-extfile',
      `${stem}.ext`,
      '-out',
      `${stem}.crt`,
    ],
    dir,
  );
}

/**
 * A throwaway CA and a server certificate it signed for 127.0.0.1 and
 * "localhost" (subjectAltName: Node checks SANs, not the CN).
 */
export function makeTlsFiles(): TlsFiles {
  const dir = mkdtempSync(join(tmpdir(), 'cacheboard-tls-'));
  makeCa(dir, 'ca');
  makeCa(dir, 'other-ca');
  signServer(dir, 'server', 'IP:127.0.0.1,DNS:localhost', 'localhost');
  return {
    dir,
    caFile: join(dir, 'ca.crt'),
    certFile: join(dir, 'server.crt'),
    keyFile: join(dir, 'server.key'),
    otherCaFile: join(dir, 'other-ca.crt'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** What a TLS redis-server serves: its certificate and key, and the CA it trusts. */
export interface ServerCert {
  certFile: string;
  keyFile: string;
  caFile: string;
}

export interface NodeCerts {
  caFile: string;
  /** The certificate and key made for `stem`. */
  of(stem: string): ServerCert;
  remove(): void;
}

/**
 * A throwaway CA and one server certificate per node, each naming only what `sans` gives it (stem ->
 * subjectAltName, e.g. { a: 'DNS:node-a.test' }): certificates that name each node by its own address.
 */
export function makeNodeCerts(sans: Record<string, string>): NodeCerts {
  const dir = mkdtempSync(join(tmpdir(), 'cacheboard-tls-'));
  makeCa(dir, 'ca');
  for (const [stem, san] of Object.entries(sans)) signServer(dir, stem, san, stem);
  const caFile = join(dir, 'ca.crt');
  return {
    caFile,
    of: (stem) => ({ certFile: join(dir, `${stem}.crt`), keyFile: join(dir, `${stem}.key`), caFile }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
