import { bytesToBase64, EscapeError, parseEscaped } from '../../app/keyText';

/** What a person typed (redis-cli escapes), as the bytes the contract carries, or where it is wrong. */
export type Typed = { ok: true; b64: string; bytes: number } | { ok: false; error: string; position: number };

export function typedBytes(text: string): Typed {
  try {
    const bytes = parseEscaped(text);
    return { ok: true, b64: bytesToBase64(bytes), bytes: bytes.length };
  } catch (e) {
    if (e instanceof EscapeError) return { ok: false, error: e.message, position: e.position };
    throw e;
  }
}
