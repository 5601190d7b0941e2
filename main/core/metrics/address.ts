/**
 * Node addresses are "host:port" strings, as Redis reports them: INFO's slaveN
 * ip= and port=, or master_host and master_port. IPv6 hosts come unbracketed
 * ("::1:6380"), so the port is whatever follows the last colon.
 */
export function nodeAddress(host: string, port: number | string): string {
  return `${host}:${port}`;
}

export function splitAddress(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(':');
  return { host: address.slice(0, Math.max(colon, 0)), port: Number(address.slice(colon + 1)) };
}

/** Host, then port as a number: "10.0.0.2:6380" sorts before "10.0.0.2:16379". */
export function compareAddresses(a: string, b: string): number {
  const x = splitAddress(a);
  const y = splitAddress(b);
  return x.host === y.host ? x.port - y.port : x.host < y.host ? -1 : 1;
}

/** Loopback addresses: a node there runs on this machine, so its files are ours to stat. */
export function isLoopback(address: string): boolean {
  const { host } = splitAddress(address);
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}
