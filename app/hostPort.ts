/** A node's address: a cluster seed, a sentinel, a master found through them. */
export interface NodeAddress {
  host: string;
  port: number;
}

/**
 * Parse "host:port", "[v6]:port" or a bare host (then `defaultPort`). Returns
 * `{ error }` with a sentence instead of throwing, so a schema can put it on
 * the field it came from.
 */
export function parseHostPort(raw: string, defaultPort: number): NodeAddress | { error: string } {
  const s = raw.trim();
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s);
  let host: string;
  let port: string | undefined;
  if (bracketed) {
    host = bracketed[1] ?? '';
    port = bracketed[2];
  } else {
    const colons = s.split(':').length - 1;
    // More than one colon and no brackets: an IPv6 address without a port.
    if (colons === 1) [host = '', port] = s.split(':');
    else host = s;
  }
  if (host === '' || !/^[A-Za-z0-9._:%-]+$/.test(host) || host.length > 253) {
    return { error: `"${raw}" is not a host:port address` };
  }
  const n = port === undefined ? defaultPort : Number(port);
  if (!Number.isInteger(n) || n < 1 || n > 65535) return { error: `"${raw}": port must be between 1 and 65535` };
  return { host, port: n };
}

/** "host:port", bracketing IPv6 hosts the way redis:// URLs and redis-cli do. */
export function formatHostPort(a: NodeAddress): string {
  return `${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;
}
