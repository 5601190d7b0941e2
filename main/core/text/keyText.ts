import type { KeyName } from '../../../app/schemas/sampling';
import { escapeBytes } from './escapeBytes';

/** Longest key text shown: a 10 KB key name is still one line in a table. */
export const KEY_TEXT_MAX_CHARS = 1024;

/** A key (any bytes) as the text people see: escaped like redis-cli, `"` too, cut to 1,024 characters. */
export function keyName(key: Buffer): KeyName {
  const { text, next } = escapeBytes(key, 0, key.length, { quote: true, maxChars: KEY_TEXT_MAX_CHARS });
  return { text, bytes: key.length, truncated: next < key.length };
}
