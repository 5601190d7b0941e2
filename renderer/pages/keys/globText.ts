/**
 * A folder's keys as a glob pattern people can read and edit. Key names are shown escaped
 * (`\xff`, `\\`, `\"`, `\u202e`), and a pattern is typed the same way; SCAN MATCH then treats
 * `* ? [ ] \` as special, so a folder whose name holds them needs them glob-escaped with a
 * backslash byte, which is itself typed `\\`. Working on the escape tokens (never on the
 * characters inside an escape) keeps `parseEscaped(globOfFolder(t))` equal to the folder's
 * bytes glob-escaped, plus `*`.
 */

/** One escape (`\x41`, `\u202e`, `\n`, `\\`) or one character (a whole code point). */
const TOKEN = /\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\.|[\s\S]/gu;

const GLOB_SPECIAL = new Set(['*', '?', '[', ']']);

/** The escaped text of a folder prefix as a pattern of every key under it. */
export function globOfFolder(escapedPrefix: string): string {
  let out = '';
  for (const [tok] of escapedPrefix.matchAll(TOKEN)) {
    if (GLOB_SPECIAL.has(tok)) out += `\\\\${tok}`;
    else if (tok === '\\\\') out += '\\\\\\\\';
    // `\x5c` is a backslash byte too, and `\x2a` a star: glob-escape them the same way.
    else if (/^\\x(5c|2a|3f|5b|5d)$/i.test(tok)) out += `\\\\${tok}`;
    else out += tok;
  }
  return `${out}*`;
}

/** Bytes glob-escaped for SCAN MATCH: a backslash before each of `* ? [ ] \`. */
export function globEscapeBytes(bytes: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (const b of bytes) {
    if (b === 0x2a || b === 0x3f || b === 0x5b || b === 0x5d || b === 0x5c) out.push(0x5c);
    out.push(b);
  }
  return Uint8Array.from(out);
}
