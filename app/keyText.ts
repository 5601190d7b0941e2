/**
 * Key names typed and carried as bytes. People type a key as it is shown (redis-cli style
 * escapes: `\xff`, `\n`, `\r`, `\t`, `\a`, `\b`, `\\`, `\"`, `\u202e`); the contract carries
 * the exact bytes as base64. Shared by the renderer and the CLI; no Node or DOM module.
 */

const NAMED: Record<string, number> = { n: 10, r: 13, t: 9, a: 7, b: 8, '\\': 0x5c, '"': 0x22 };

export class EscapeError extends Error {
  constructor(
    message: string,
    /** 1-based character position of the bad escape in the typed text. */
    readonly position: number,
  ) {
    super(message);
  }
}

const encoder = new TextEncoder();

/** The bytes a typed, escaped key name stands for; throws EscapeError naming the position. */
export function parseEscaped(text: string): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (ch !== '\\') {
      const cp = text.codePointAt(i) as number;
      const s = String.fromCodePoint(cp);
      out.push(...encoder.encode(s));
      i += s.length - 1;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) throw new EscapeError(`a lone \\ at position ${i + 1}: type \\\\ for a backslash`, i + 1);
    if (next in NAMED) {
      out.push(NAMED[next] as number);
      i += 1;
    } else if (next === 'x') {
      const hex = text.slice(i + 2, i + 4);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new EscapeError(`\\x at position ${i + 1} needs two hex digits, as in \\xff`, i + 1);
      out.push(parseInt(hex, 16));
      i += 3;
    } else if (next === 'u') {
      const hex = text.slice(i + 2, i + 6);
      if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw new EscapeError(`\\u at position ${i + 1} needs four hex digits, as in \\u202e`, i + 1);
      out.push(...encoder.encode(String.fromCodePoint(parseInt(hex, 16))));
      i += 5;
    } else {
      throw new EscapeError(`unknown escape \\${next} at position ${i + 1}: use \\xHH, \\n, \\r, \\t, \\\\ or \\"`, i + 1);
    }
  }
  return Uint8Array.from(out);
}

/** Bytes as standard base64, in slices so a long value never builds one huge argument list. */
export function bytesToBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin);
}

export function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The base64 of a typed, escaped key name (throws EscapeError). */
export function escapedToBase64(text: string): string {
  return bytesToBase64(parseEscaped(text));
}
