import { base64ToBytes, bytesToBase64 } from '../../../../app/keyText';

export { typedBytes, type Typed } from '../../../lib/typedBytes';

/** Bytes of several pages as one array (the string view's loaded value). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * SHA-1 of the bytes the view showed, hex: what a string set sends as `expectSha1`, so the
 * server refuses to overwrite a value that changed since (WebCrypto: off the JS heap, fast).
 */
export async function sha1Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

export { base64ToBytes, bytesToBase64 };
