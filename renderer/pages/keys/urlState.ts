import { fromBase64Url, toBase64Url } from '../../lib/keyLink';

/**
 * What the Keys page keeps in its URL, so a reload (or a link) restores it:
 * `#/keys?profile=…&db=…&sep=…&prefix=…&match=…&key=…`. `prefix` and `key` are exact
 * bytes as base64url; `match` is the pattern as typed (escaped text).
 */
export interface KeysUrl {
  profileId?: string | undefined;
  db?: number | undefined;
  separator?: string | undefined;
  /** The selected folder's bytes (standard base64). */
  prefixB64?: string | undefined;
  /** A typed pattern, when the list shows one rather than the folder's keys. */
  match?: string | undefined;
  /** The open key's bytes (standard base64). */
  keyB64?: string | undefined;
}

/** The Keys page's state from a hash like `#/keys?db=2&key=…`; bad values are dropped, not guessed. */
export function readKeysUrl(hash: string): KeysUrl {
  const at = hash.indexOf('?');
  if (at < 0) return {};
  const q = new URLSearchParams(hash.slice(at + 1));
  const text = (name: string) => q.get(name) ?? undefined;
  const bytes = (name: string) => {
    const v = q.get(name);
    return v === null ? undefined : fromBase64Url(v);
  };
  const dbText = q.get('db');
  const db = dbText !== null && /^\d{1,5}$/.test(dbText) ? Number(dbText) : undefined;
  const sep = text('sep');
  return {
    profileId: text('profile'),
    db,
    separator: sep === '' ? undefined : sep,
    prefixB64: bytes('prefix'),
    match: text('match'),
    keyB64: bytes('key'),
  };
}

/** The hash for a Keys page state; empty parts are left out. */
export function keysUrlHash(u: KeysUrl): string {
  const q = new URLSearchParams();
  if (u.profileId !== undefined) q.set('profile', u.profileId);
  if (u.db !== undefined) q.set('db', String(u.db));
  if (u.separator !== undefined) q.set('sep', u.separator);
  if (u.prefixB64 !== undefined) q.set('prefix', toBase64Url(u.prefixB64));
  if (u.match !== undefined) q.set('match', u.match);
  if (u.keyB64 !== undefined) q.set('key', toBase64Url(u.keyB64));
  const s = q.toString();
  return s === '' ? '#/keys' : `#/keys?${s}`;
}
