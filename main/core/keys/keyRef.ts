import type { KeyRef, ValueBytes } from '../../../app/schemas/keys';
import { escapeBytes } from '../text/escapeBytes';
import { keyName } from '../text/keyText';

/** A key as the contract carries it out: the escaped text people read and its exact bytes. */
export function keyRef(key: Buffer): KeyRef {
  return { ...keyName(key), b64: key.toString('base64') };
}

/** The bytes a contract input (base64, already checked by its schema) stands for. */
export function keyBytes(b64: string): Buffer {
  return Buffer.from(b64, 'base64');
}

/** Longest element shown in a page of a collection: a 10 MB hash field is cut, and says so. */
export const ELEMENT_MAX_BYTES = 16 * 1024;

/**
 * Bytes of a value (a string page, a field, a member) as output, cut to `maxBytes`: the escaped
 * text, the base64 of the bytes kept, and the full length.
 */
export function valueBytes(buf: Buffer, maxBytes = ELEMENT_MAX_BYTES): ValueBytes {
  const kept = buf.length > maxBytes ? buf.subarray(0, maxBytes) : buf;
  const { text } = escapeBytes(kept, 0, kept.length);
  return { text, b64: kept.toString('base64'), bytes: buf.length, truncated: kept.length < buf.length };
}
