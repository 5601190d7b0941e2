/** "host:port" behind a forwarded loopback address, or undefined for any other. */
export type Behind = (host: string, port: number) => string | undefined;

/**
 * Which clients dial through an SSH tunnel, and how their loopback ports map back. Kept apart
 * (no imports) so error texts can name the real server without depending on the tunnel code.
 */
const tunnelled = new WeakMap<object, Behind>();

export function noteTunnelled(client: object, behind: Behind): void {
  tunnelled.set(client, behind);
}

/** The address a tunnelled client's loopback `host:port` stands for (as seen from the last SSH server). */
export function addressBehind(client: object, host: string, port: number): string | undefined {
  return tunnelled.get(client)?.(host, port);
}
