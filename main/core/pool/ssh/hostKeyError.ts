import type { HostKeyReason } from './types';

/** A host key we refuse: never "accept any". `presented`/`expected` are SHA256 fingerprints as OpenSSH prints them. */
export class HostKeyError extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly presented: string,
    readonly reason: HostKeyReason,
    readonly expected?: string,
  ) {
    super(hostKeyMessage(host, port, presented, reason, expected));
    this.name = 'HostKeyError';
  }
}

function hostKeyMessage(host: string, port: number, presented: string, reason: HostKeyReason, expected?: string): string {
  const where = port === 22 ? host : `[${host}]:${port}`;
  if (reason === 'revoked') return `SSH host key of ${where} is revoked (${presented})`;
  if (reason === 'unknown') return `SSH host ${where} is not known; its host key fingerprint is ${presented}`;
  return `SSH host key of ${where} has changed: it presented ${presented}, expected ${expected ?? '?'}`;
}
