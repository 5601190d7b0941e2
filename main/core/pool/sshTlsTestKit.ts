import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NodeAddress } from '../../../app/hostPort';
import type { NodeCerts } from '../../../testing/tls';
import { until, type Bastion } from './sshTestKit';

/** A TLS node behind the bastion: where it listens, the name it announces (if any) and its certificate's stem. */
export interface TlsNode {
  at: NodeAddress;
  name?: string;
  cert: string;
}

/**
 * TLS-only masters inside the bastion, one per node, the cluster bus over TLS too; a node with a `name` announces
 * it (cluster-announce-hostname, cluster-preferred-endpoint-type hostname), so CLUSTER SLOTS and MOVED give names.
 */
export async function tlsClusterBehind(b: Bastion, nodes: TlsNode[], certs: NodeCerts): Promise<void> {
  for (const n of nodes) {
    await b.tlsRedis(n.at, certs.of(n.cert), [
      ...['--cluster-enabled', 'yes', '--cluster-config-file', join(b.dir, `nodes-${n.at.host}-${n.at.port}.conf`), '--cluster-node-timeout', '2000'],
      ...['--tls-cluster', 'yes', '--cluster-announce-ip', n.at.host],
      ...(n.name === undefined ? [] : ['--cluster-announce-hostname', n.name, '--cluster-preferred-endpoint-type', 'hostname']),
    ]);
  }
  const first = nodes[0]?.at ?? { host: '', port: 0 };
  b.tlsCli(first, certs.caFile, ['--cluster', 'create', ...nodes.map((n) => `${n.at.host}:${n.at.port}`), '--cluster-yes']);
  await until('cluster_state:ok', () => nodes.every((n) => b.tlsCli(n.at, certs.caFile, ['CLUSTER', 'INFO']).includes('cluster_state:ok')));
}

/** A TLS master, a replica and sentinels (quorum 2) inside the bastion, each on its own address, replication and sentinel links over TLS. */
export async function tlsSentinelsBehind(
  b: Bastion,
  set: { master: TlsNode; replica: TlsNode; sentinels: TlsNode[]; name: string },
  certs: NodeCerts,
): Promise<void> {
  const { master, replica, name } = set;
  await b.tlsRedis(master.at, certs.of(master.cert), ['--tls-replication', 'yes']);
  await b.tlsRedis(replica.at, certs.of(replica.cert), [
    ...['--tls-replication', 'yes', '--replicaof', master.at.host, String(master.at.port), '--replica-announce-ip', replica.at.host],
  ]);
  await until('replica in sync', () => b.tlsCli(replica.at, certs.caFile, ['INFO', 'replication']).includes('master_link_status:up'));
  for (const s of set.sentinels) {
    const conf = join(b.dir, `sentinel-${s.at.host}-${s.at.port}.conf`);
    writeFileSync(
      conf,
      [
        `sentinel monitor ${name} ${master.at.host} ${master.at.port} 2`,
        `sentinel down-after-milliseconds ${name} 1000`,
        `sentinel failover-timeout ${name} 5000`,
        `sentinel announce-ip ${s.at.host}`,
        `sentinel announce-port ${s.at.port}`,
        '',
      ].join('\n'),
    );
    await b.tlsRedis(s.at, certs.of(s.cert), ['--sentinel', '--tls-replication', 'yes'], conf);
  }
  const others = String(set.sentinels.length - 1);
  await until('sentinels see each other', () =>
    set.sentinels.every((s) =>
      new RegExp(`num-other-sentinels\\s+${others}`).test(b.tlsCli(s.at, certs.caFile, ['SENTINEL', 'MASTER', name]).replace(/\n/g, ' ')),
    ),
  );
}
