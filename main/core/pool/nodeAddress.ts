import { AppError } from '../../../app/errors';
import { plainSpecAt } from './topology';
import type { ProfileSpec } from './types';

/**
 * The profile's spec pointed at another node, or undefined when `address` is the
 * profile's own (then monitoring() serves it, through the sentinels for a
 * sentinel profile). Every node of a cluster is another node: the pool holds
 * no single-node connection to a cluster's seed. Accepts "host:port" and
 * "[v6]:port"; Redis reports IPv6 replicas unbracketed ("::1" + port), so the
 * port is what follows the last colon.
 */
export function otherNode(spec: ProfileSpec, address: string): { key: string; spec: ProfileSpec } | undefined {
  const at = specAtAddress(spec, address);
  if (at.host === spec.host && at.port === spec.port && spec.topology?.kind !== 'cluster') return undefined;
  return { key: `${at.host}:${at.port}`, spec: at };
}

/**
 * The profile's spec (credentials, TLS) aimed straight at another node,
 * "host:port" or "[v6]:port", with no topology. Callers check the address
 * belongs to the profile's tree first.
 */
export function specAtAddress(spec: ProfileSpec, address: string): ProfileSpec {
  const colon = address.lastIndexOf(':');
  const port = Number(address.slice(colon + 1));
  const host = address.slice(0, Math.max(colon, 0)).replace(/^\[(.*)\]$/, '$1');
  if (colon <= 0 || host === '' || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new AppError('VALIDATION', `"${address}" is not a host:port address.`, 'address');
  }
  return plainSpecAt(spec, { host, port });
}
