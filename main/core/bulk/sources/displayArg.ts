import { escapeBytes } from '../../text/escapeBytes';

/** Bytes of one argument shown in a preview; longer values are cut (a 100 MB value is not a preview). */
export const PREVIEW_ARG_BYTES = 256;

/**
 * One argument as redis-cli shows it (see escapeBytes), cut at
 * PREVIEW_ARG_BYTES with a note of how many bytes were left out.
 */
export function displayArg(buf: Buffer, start: number, end: number): string {
  const { text, next } = escapeBytes(buf, start, end, { maxBytes: PREVIEW_ARG_BYTES });
  return next < end ? `${text}… (+${end - next} bytes)` : text;
}
