export interface ParsedRedisUrl {
  host: string;
  port: number;
  db: number;
  tls: boolean;
  username?: string;
  password?: string;
}

/**
 * Parse `redis://[user[:pass]@]host[:port][/db]` and `rediss://…` (TLS).
 * Returns `{ error }` with a sentence for the user instead of throwing, so the
 * schema can attach it to the `url` field.
 */
export function parseRedisUrl(raw: string): ParsedRedisUrl | { error: string } {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return { error: 'url is not a valid URL; expected redis://[user:password@]host[:port][/db]' };
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') {
    return { error: `url must start with redis:// or rediss://, not ${u.protocol}//` };
  }
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') return { error: 'url has no host' };
  const port = u.port === '' ? 6379 : Number(u.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    return { error: 'url port must be between 1 and 65535' };
  }
  const path = u.pathname.replace(/^\//, '');
  let db = 0;
  if (path !== '') {
    if (!/^\d{1,5}$/.test(path)) return { error: `url path must be a DB number, not "${path}"` };
    db = Number(path);
  }
  const out: ParsedRedisUrl = { host, port, db, tls: u.protocol === 'rediss:' };
  if (u.username !== '') out.username = decodeURIComponent(u.username);
  if (u.password !== '') out.password = decodeURIComponent(u.password);
  return out;
}
