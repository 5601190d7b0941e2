/** `host:port/db`, bracketing IPv6 hosts the way redis:// URLs do. */
export function addressOf(p: { host: string; port: number; db: number }): string {
  const host = p.host.includes(':') ? `[${p.host}]` : p.host;
  return `${host}:${p.port}/${p.db}`;
}
