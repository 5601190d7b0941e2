import type { PeerCertificate } from 'node:tls';
import { describe, expect, it } from 'vitest';
import { tlsBehind } from './tunnelTls';

/** The fields Node's checkServerIdentity reads. */
function certFor(subjectaltname: string): PeerCertificate {
  return { subject: { CN: 'node' }, subjectaltname } as unknown as PeerCertificate;
}

describe('tlsBehind (a server dialled at a forwarded 127.0.0.1 port)', () => {
  it('sends a host name as SNI, so Node checks the certificate against it', () => {
    expect(tlsBehind({ rejectUnauthorized: true }, 'node-a.example')).toEqual({ rejectUnauthorized: true, servername: 'node-a.example' });
  });

  it('never sends an IP address as SNI, and checks the certificate against that address, not the dialled 127.0.0.1', () => {
    const tls = tlsBehind({ rejectUnauthorized: true }, '10.0.3.7');
    expect(tls.servername).toBeUndefined();
    expect(tls.checkServerIdentity?.('127.0.0.1', certFor('IP Address:10.0.3.7'))).toBeUndefined();
    expect(tls.checkServerIdentity?.('127.0.0.1', certFor('IP Address:127.0.0.1'))).toBeInstanceOf(Error);
  });

  it("keeps the profile's own servername for every server", () => {
    expect(tlsBehind({ servername: 'shared.example' }, '10.0.3.7')).toEqual({ servername: 'shared.example' });
    expect(tlsBehind({ servername: 'shared.example' }, 'node-a.example')).toEqual({ servername: 'shared.example' });
  });
});
