import type { Candidate, Ignored } from './candidate';
import { flag, int, isPem, leftOver, mapAddress, setIf, sub, text, type Entry } from './peerFields';

/**
 * Another Redis Desktop Manager's "Export" file (connections.ano): the base64 of a JSON array
 * of its stored connections: host, port, auth (the password), username, name, db, cluster,
 * separator, connectionReadOnly, sshOptions {host, port, username, password, privatekey (a
 * path), passphrase, timeout, beforeconnect}, sslOptions {key, cert, ca (paths), servername},
 * sentinelOptions {masterName, nodePassword}. For a sentinel connection ARDM dials host:port as
 * the sentinel with `auth` as the sentinel's password and `nodePassword` as the data nodes'.
 */
const KNOWN = new Set(['name', 'connectionName', 'host', 'port', 'db', 'username', 'auth', 'cluster', 'sentinelOptions', 'sslOptions', 'sshOptions']);

const WHY: Record<string, string> = {
  key: "ARDM's own id: Cacheboard gives each imported profile a new one",
  order: "ARDM's list order",
  separator: 'the Keys page chooses the namespace separator',
  connectionReadOnly: 'Cacheboard has no read-only profiles; give analysts their own Redis user (Analyst access) instead',
};

export function ardmEntry(e: Entry): Candidate {
  const draft: Entry = {};
  const mapped: string[] = [];
  const ignored: Ignored[] = leftOver(e, KNOWN, WHY);
  mapAddress(e, draft, mapped);
  setIf(draft, mapped, 'username', text(e.username), 'username');
  const sentinel = sub(e.sentinelOptions);
  if (text(sentinel.masterName) !== undefined) {
    const topology: Entry = { kind: 'sentinel' };
    setIf(topology, mapped, 'masterName', text(sentinel.masterName), 'sentinelOptions.masterName → topology.masterName');
    setIf(topology, mapped, 'sentinelPassword', text(e.auth), 'auth → topology.sentinelPassword');
    draft.topology = topology;
    setIf(draft, mapped, 'password', text(sentinel.nodePassword), 'sentinelOptions.nodePassword → password');
  } else {
    if (flag(e.cluster)) {
      draft.topology = { kind: 'cluster' };
      mapped.push('cluster → topology (cluster)');
    }
    setIf(draft, mapped, 'password', text(e.auth), 'auth → password');
  }
  const tls = tlsOf(sub(e.sslOptions), e.sslOptions !== undefined && e.sslOptions !== null, mapped, ignored);
  if (tls !== undefined) draft.tls = tls;
  const ssh = sshOf(sub(e.sshOptions), mapped, ignored);
  if (ssh !== undefined) draft.ssh = ssh;
  return { draft, mapped, ignored };
}

function tlsOf(o: Entry, on: boolean, mapped: string[], ignored: Ignored[]): Entry | undefined {
  if (!on) return undefined;
  const tls: Entry = { enabled: true };
  mapped.push('sslOptions → tls');
  // ARDM never verifies the server's certificate; Cacheboard does unless the user turns it off.
  ignored.push({ field: 'sslOptions', why: 'ARDM skips certificate verification; Cacheboard verifies it (turn it off in the form if the server cannot pass)' });
  const ca = text(o.ca);
  if (ca !== undefined && !isPem(ca)) setIf(tls, mapped, 'caFile', ca, 'sslOptions.ca → tls.caFile');
  setIf(tls, mapped, 'servername', text(o.servername), 'sslOptions.servername → tls.servername');
  if (text(o.key) !== undefined || text(o.cert) !== undefined) {
    ignored.push({ field: 'sslOptions.key/cert', why: 'Cacheboard profiles have no TLS client certificate' });
  }
  return tls;
}

function sshOf(o: Entry, mapped: string[], ignored: Ignored[]): Entry | undefined {
  const host = text(o.host);
  if (host === undefined) return undefined;
  const ssh: Entry = {};
  setIf(ssh, mapped, 'host', host, 'sshOptions.host → ssh.host');
  setIf(ssh, mapped, 'port', int(o.port), 'sshOptions.port → ssh.port');
  setIf(ssh, mapped, 'user', text(o.username), 'sshOptions.username → ssh.user');
  const keyFile = text(o.privatekey);
  const password = text(o.password);
  const passphrase = text(o.passphrase);
  if (keyFile !== undefined) {
    ssh.auth = { kind: 'key', keyFile, ...(passphrase === undefined ? {} : { passphrase }) };
    mapped.push('sshOptions.privatekey → ssh.auth.keyFile');
  } else if (password !== undefined) {
    ssh.auth = { kind: 'password', password };
    mapped.push('sshOptions.password → ssh.auth.password');
  }
  if (text(o.beforeconnect) !== undefined) {
    ignored.push({ field: 'sshOptions.beforeconnect', why: 'Cacheboard never runs a command taken from an imported file' });
  }
  if (o.timeout !== undefined && o.timeout !== 30) ignored.push({ field: 'sshOptions.timeout', why: "Cacheboard's SSH timeout is not set per profile" });
  return ssh;
}
