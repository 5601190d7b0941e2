import { formatHostPort } from '../../../app/hostPort';
import { ProfileTag } from '../../../app/schemas/connections';
import type { Candidate, Ignored } from './candidate';
import { flag, int, isPem, leftOver, mapAddress, setIf, sub, text, type Entry } from './peerFields';

/**
 * RedisInsight's "Export databases" file: a JSON array of databases (its DatabaseImportService
 * reads the same fields back): host, port, name, db, username, password, connectionType
 * (STANDALONE, CLUSTER, SENTINEL), nodes, sentinelMaster {name, username, password}, tls,
 * tlsServername, verifyServerCert, caCert / clientCert {name, certificate, key} (PEM text),
 * ssh, sshOptions {host, port, username, password, privateKey, passphrase}, tags [{key, value}].
 * For a sentinel database, host:port and username/password are the sentinel's, and
 * sentinelMaster's username/password the data nodes'.
 */
const KNOWN = new Set([
  'name',
  'connectionName',
  'host',
  'port',
  'db',
  'username',
  'password',
  'auth',
  'connectionType',
  'type',
  'cluster',
  'nodes',
  'sentinelMaster',
  'tls',
  'ssl',
  'tlsServername',
  'verifyServerCert',
  'caCert',
  'clientCert',
  'ssh',
  'sshOptions',
  'tags',
]);

const WHY: Record<string, string> = {
  id: "RedisInsight's own id: Cacheboard gives each imported profile a new one",
  modules: 'Cacheboard asks the server which modules it has when it connects',
  compressor: 'Cacheboard shows values as stored; it has no per-profile decompressor',
  provider: 'informational only',
  lastConnection: 'informational only',
  version: 'Cacheboard reads the server version when it connects',
  timeout: "Cacheboard's connect and command timeouts are not set per profile",
  forceStandalone: "Cacheboard connects as the profile's topology says",
  keyNameFormat: 'the Keys page chooses how names are shown',
  new: 'informational only',
};

type Kind = 'standalone' | 'cluster' | 'sentinel';

function kindOf(e: Entry): Kind {
  const ct = text(e.connectionType)?.toUpperCase();
  if (ct === 'CLUSTER') return 'cluster';
  if (ct === 'SENTINEL') return 'sentinel';
  if (ct === 'STANDALONE') return 'standalone';
  const t = text(e.type)?.toLowerCase();
  if (t === 'cluster' || t === 'sentinel') return t;
  if (flag(e.cluster)) return 'cluster';
  return text(sub(e.sentinelMaster).name) === undefined ? 'standalone' : 'sentinel';
}

/** The `nodes` RedisInsight lists for a cluster (seeds) or a sentinel database (sentinels), as "host:port". */
function nodeList(e: Entry): string[] {
  if (!Array.isArray(e.nodes)) return [];
  return e.nodes.flatMap((n): string[] => {
    const s = sub(n);
    const host = text(s.host);
    const port = int(s.port);
    return host !== undefined && typeof port === 'number' ? [formatHostPort({ host, port })] : [];
  });
}

export function redisInsightEntry(e: Entry): Candidate {
  const draft: Entry = {};
  const mapped: string[] = [];
  const ignored: Ignored[] = leftOver(e, KNOWN, WHY);
  mapAddress(e, draft, mapped);
  const kind = kindOf(e);
  const nodes = nodeList(e);
  const user = text(e.username);
  const password = text(e.password) ?? text(e.auth);
  if (kind === 'sentinel') {
    const master = sub(e.sentinelMaster);
    const topology: Entry = { kind: 'sentinel' };
    setIf(topology, mapped, 'masterName', text(master.name), 'sentinelMaster.name → topology.masterName');
    if (nodes.length > 0) setIf(topology, mapped, 'sentinels', nodes, 'nodes → topology.sentinels');
    setIf(topology, mapped, 'sentinelUsername', user, 'username → topology.sentinelUsername');
    setIf(topology, mapped, 'sentinelPassword', password, 'password → topology.sentinelPassword');
    draft.topology = topology;
    setIf(draft, mapped, 'username', text(master.username), 'sentinelMaster.username → username');
    setIf(draft, mapped, 'password', text(master.password), 'sentinelMaster.password → password');
  } else {
    if (kind === 'cluster') {
      draft.topology = { kind: 'cluster', ...(nodes.length > 0 ? { seeds: nodes } : {}) };
      mapped.push(nodes.length > 0 ? 'nodes → topology.seeds' : 'connectionType → topology (cluster)');
    }
    setIf(draft, mapped, 'username', user, 'username');
    setIf(draft, mapped, 'password', password, 'password');
  }
  const tls = tlsOf(e, mapped, ignored);
  if (tls !== undefined) draft.tls = tls;
  const ssh = sshOf(e, mapped, ignored);
  if (ssh !== undefined) draft.ssh = ssh;
  const tags = tagsOf(e.tags, ignored);
  if (tags.length > 0) setIf(draft, mapped, 'tags', tags, 'tags');
  return { draft, mapped, ignored };
}

function tlsOf(e: Entry, mapped: string[], ignored: Ignored[]): Entry | undefined {
  const ca = sub(e.caCert);
  const client = sub(e.clientCert);
  if (!flag(e.tls) && !flag(e.ssl)) return undefined;
  const tls: Entry = { enabled: true };
  mapped.push('tls');
  setIf(tls, mapped, 'servername', text(e.tlsServername), 'tlsServername → tls.servername');
  if (e.verifyServerCert === false) setIf(tls, mapped, 'rejectUnauthorized', false, 'verifyServerCert → tls.rejectUnauthorized');
  const caText = text(ca.certificate) ?? text(e.caCert);
  if (caText !== undefined) {
    if (isPem(caText))
      ignored.push({
        field: 'caCert',
        why: 'the CA certificate is in the file as PEM text; Cacheboard reads a CA file on its server: save it there and set its path',
      });
    else setIf(tls, mapped, 'caFile', caText, 'caCert → tls.caFile');
  }
  if (Object.keys(client).length > 0) ignored.push({ field: 'clientCert', why: 'Cacheboard profiles have no TLS client certificate' });
  return tls;
}

function sshOf(e: Entry, mapped: string[], ignored: Ignored[]): Entry | undefined {
  const o = sub(e.sshOptions);
  const host = text(o.host);
  if (host === undefined) return undefined;
  const ssh: Entry = {};
  setIf(ssh, mapped, 'host', host, 'sshOptions.host → ssh.host');
  setIf(ssh, mapped, 'port', int(o.port), 'sshOptions.port → ssh.port');
  setIf(ssh, mapped, 'user', text(o.username), 'sshOptions.username → ssh.user');
  const key = text(o.privateKey) ?? text(o.privatekey);
  const password = text(o.password);
  if (key !== undefined && !isPem(key)) {
    ssh.auth = { kind: 'key', keyFile: key, ...(text(o.passphrase) === undefined ? {} : { passphrase: text(o.passphrase) }) };
    mapped.push('sshOptions.privateKey → ssh.auth.keyFile');
  } else if (key !== undefined) {
    ignored.push({
      field: 'sshOptions.privateKey',
      why: 'the private key is in the file itself; Cacheboard reads a key file on its server or uses the SSH agent: set one in the form',
    });
  } else if (password !== undefined) {
    ssh.auth = { kind: 'password', password };
    mapped.push('sshOptions.password → ssh.auth.password');
  }
  return ssh;
}

/** RedisInsight's tags are {key, value} pairs: kept as "key:value" where they make a valid tag. */
function tagsOf(v: unknown, ignored: Ignored[]): string[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((t, i): string[] => {
    const s = sub(t);
    const key = text(s.key);
    const value = text(s.value);
    const tag = key === undefined ? undefined : value === undefined ? key : `${key}:${value}`;
    if (tag !== undefined && ProfileTag.safeParse(tag).success) return [tag];
    ignored.push({ field: `tags[${i}]`, why: 'not a tag Cacheboard can hold (1 to 40 characters, no commas)' });
    return [];
  });
}
