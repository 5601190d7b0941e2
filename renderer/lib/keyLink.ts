import { EscapeError, parseEscaped } from '../../app/keyText';

/**
 * Deep links into the Keys page: `#/keys?profile=…&db=…&key=…`, the key's exact bytes as
 * base64url. Sampling's biggest keys, Monitor's hot keys and SLOWLOG arguments link with it,
 * and the Keys page writes its own state the same way, so a reload restores what was open.
 */

/** Standard base64 -> base64url without padding (`+/` -> `-_`): safe in a URL's query as is. */
export function toBase64Url(b64: string): string {
  return b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url or standard base64 (a link typed by hand) -> standard padded base64; undefined when it is neither. */
export function fromBase64Url(text: string): string | undefined {
  const std = text.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(std)) return undefined;
  const bare = std.replace(/=+$/, '');
  if (bare.length % 4 === 1) return undefined;
  return bare + '='.repeat((4 - (bare.length % 4)) % 4);
}

export interface KeyLink {
  profileId: string;
  db?: number | undefined;
  /** The key's exact bytes, standard base64. */
  keyB64: string;
}

/** The href that opens one key in the Keys page. */
export function keyLinkHref({ profileId, db, keyB64 }: KeyLink): string {
  const q = new URLSearchParams({ profile: profileId });
  if (db !== undefined) q.set('db', String(db));
  q.set('key', toBase64Url(keyB64));
  return `#/keys?${q.toString()}`;
}

/**
 * A key's bytes from the escaped text a page shows (redis-cli style, as SLOWLOG and MONITOR
 * escape arguments): parseEscaped inverts that escaping exactly. Undefined when the text is
 * not a valid escape (it was cut inside an escape); callers also refuse text they know was
 * truncated, since the bytes after the cut are unknown: such a key gets no link.
 */
export function keyBytesFromEscaped(text: string): Uint8Array | undefined {
  try {
    return parseEscaped(text);
  } catch (e) {
    if (e instanceof EscapeError) return undefined;
    throw e;
  }
}
