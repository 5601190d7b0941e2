/**
 * How a server names itself to a person: "Valkey 8.0.1", "Redis 7.0.15". `name` is INFO
 * server's server_name (Valkey) or 'redis' where the server names none; a fork's own name
 * is shown as it sent it.
 */
export function serverTitle(name: string | undefined, version: string | undefined): string {
  const known: Record<string, string> = { redis: 'Redis', valkey: 'Valkey' };
  const shown = name === undefined || name === '' ? 'Redis' : (known[name.toLowerCase()] ?? name);
  return version === undefined || version === '' ? shown : `${shown} ${version}`;
}
