import { isIP } from 'node:net';
import { checkServerIdentity, type ConnectionOptions } from 'node:tls';
import { SentinelConnector, type RedisOptions, type SentinelAddress, type SentinelConnectionOptions } from 'ioredis';
import type { NodeAddress } from '../../../app/hostPort';
import { nodeKeyAddress, type Via } from './sshVia';

/**
 * Through an SSH tunnel every server is dialled at a forwarded 127.0.0.1 port, but its certificate names the
 * server as the last SSH host reaches it (`host`: the profile's host, an address a cluster announces or a
 * sentinel names). Node checks `servername` when given, else the dialled host: a name becomes the servername
 * (and so the SNI); an IP is never sent as SNI (RFC 6066), so it is checked by checkServerIdentity instead.
 * A servername the profile sets is kept: it is the user's own choice for every node. Nothing is relaxed:
 * rejectUnauthorized stays as the profile says.
 */
function identityBehind(tls: ConnectionOptions, host: string): Pick<ConnectionOptions, 'servername' | 'checkServerIdentity'> {
  if (tls.servername !== undefined) return {};
  if (isIP(host) === 0) return { servername: host };
  return { checkServerIdentity: (_dialled, cert) => checkServerIdentity(host, cert) };
}

/** The profile's TLS options for the server at `host` (as seen from the last SSH host), dialled through the tunnel. */
export function tlsBehind(tls: ConnectionOptions, host: string): ConnectionOptions {
  return { ...tls, ...identityBehind(tls, host) };
}

/**
 * ioredis' Cluster builds each node's connection from the natMap's (and a seed's) object first and
 * redisOptions second (lodash defaults in ConnectionPool.createRedisFromOptions), so a `tls` carried there
 * replaces redisOptions.tls for that node alone, and follows it into the slot refresher and the subscriber
 * (both copy the node's options). Every node found through CLUSTER SLOTS, MOVED or ASK gets its own.
 */
export function clusterDial(via: Via, tls: ConnectionOptions | undefined): (at: NodeAddress) => NodeAddress & { tls?: ConnectionOptions } {
  return (at) => ({ ...via.forward(at), ...(tls === undefined ? {} : { tls: tlsBehind(tls, at.host) }) });
}

/**
 * The master a sentinel names is dialled with tls.connect({ ...natMap's object, ...options.tls })
 * (SentinelConnector.connect), so the identity check rides at the top level of the natMap's object;
 * options.tls (tlsOptions) has no servername or checkServerIdentity of its own unless the profile set
 * a servername, and then identityBehind adds none.
 */
export function sentinelNatMap(via: Via, tls: ConnectionOptions | undefined): (key: string) => NodeAddress & ConnectionOptions {
  return (key) => {
    const at = nodeKeyAddress(key);
    return { ...via.forward(at), ...(tls === undefined ? {} : identityBehind(tls, at.host)) };
  };
}

type DialSentinel = (endpoint: Partial<SentinelAddress>, options?: Partial<RedisOptions>) => unknown;

/**
 * ioredis dials every sentinel (asking for the master, and the failover detector's subscriptions) with one
 * `sentinelTLS` and only the endpoint's host and port: through a tunnel that is 127.0.0.1 for all of them.
 * Its only per-dial hook is connectToSentinel's second argument, spread last over the client's options
 * (private in the typings, hence the cast): each dial gets the TLS options of the sentinel its forwarded
 * port stands for. A port this tunnel did not forward keeps `sentinelTLS`, checked against 127.0.0.1: it fails.
 */
export function tunnelledSentinels(via: Via, tls: ConnectionOptions): RedisOptions['Connector'] {
  return class extends SentinelConnector {
    // Redis constructs its Connector with its own options: a sentinel profile's, as for SentinelConnector.
    constructor(options: unknown) {
      super(options as SentinelConnectionOptions);
      const self = this as unknown as { connectToSentinel: DialSentinel };
      const dial = self.connectToSentinel.bind(this);
      self.connectToSentinel = (endpoint, extra) => {
        const behind = endpoint.host === undefined || endpoint.port === undefined ? undefined : via.behind(endpoint.host, endpoint.port);
        return dial(endpoint, behind === undefined ? extra : { ...extra, tls: tlsBehind(tls, nodeKeyAddress(behind).host) });
      };
    }
  };
}
