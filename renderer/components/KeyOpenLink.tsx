import type { ReactNode } from 'react';
import { bytesToBase64 } from '../../app/keyText';
import { keyBytesFromEscaped, keyLinkHref } from '../lib/keyLink';

interface Props {
  profileId: string;
  /** The DB the key lives in; absent: the profile's own. */
  db?: number | undefined;
  /** The key as the page shows it, escaped like redis-cli (`\xff`, `\"`, `\u202e`). */
  escaped: string;
  /** The text was cut (by the server, or by Redis itself): its bytes past the cut are unknown, so no link. */
  cut: boolean;
  /** The key's length in bytes, when the page knows it: a text that parses to another length gets no link. */
  bytes?: number | undefined;
  children: ReactNode;
  /** What stands when there is no link; the children by default. */
  fallback?: ReactNode;
}

/**
 * A key name that opens in the Keys page (`#/keys?profile=…&key=…`). Pages show escaped text;
 * parseEscaped inverts the escaping exactly, so the link carries the key's exact bytes. A cut
 * name is shown without a link rather than linked to the wrong key.
 */
export function KeyOpenLink({ profileId, db, escaped, cut, bytes, children, fallback = children }: Props) {
  const key = cut ? undefined : keyBytesFromEscaped(escaped);
  if (key === undefined || (bytes !== undefined && key.length !== bytes)) return <>{fallback}</>;
  return (
    <a
      className="key-open-link"
      href={keyLinkHref({ profileId, db, keyB64: bytesToBase64(key) })}
      title="Open this key in the Keys page"
      data-testid="key-open-link"
    >
      {children}
    </a>
  );
}
