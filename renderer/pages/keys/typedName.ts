import { EscapeError, escapedToBase64 } from '../../../app/keyText';

/** A typed, escaped name or pattern as the bytes it stands for, or why it cannot be read (the position named). */
export function typedBytes(text: string): { b64: string; error?: undefined } | { b64?: undefined; error: string } {
  try {
    return { b64: escapedToBase64(text) };
  } catch (e) {
    if (e instanceof EscapeError) return { error: e.message };
    throw e;
  }
}
