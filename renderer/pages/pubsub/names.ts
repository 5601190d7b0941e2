import { typedBytes } from '../../lib/typedBytes';

export interface TypedNames {
  /** Each name's bytes as base64, once each, in the order typed. */
  b64: string[];
  /** The first bad line, said with its number and the escape's position. */
  error: string | undefined;
}

/**
 * One name a line, typed as names are shown (redis-cli escapes: `\xff`, `\n`, `\u202e`), so
 * any channel the page shows can be typed back. Blank lines are skipped; a name given
 * twice counts once.
 */
export function typedNames(text: string): TypedNames {
  const b64: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    if (line.trim() === '') continue;
    const t = typedBytes(line);
    if (!t.ok) return { b64: [], error: `line ${i + 1}: ${t.error}` };
    if (!b64.includes(t.b64)) b64.push(t.b64);
  }
  return { b64, error: undefined };
}
