const utf8 = new TextDecoder('utf-8', { fatal: true });

function hex(byte: number): string {
  return `\\x${byte.toString(16).padStart(2, '0')}`;
}

/**
 * A command argument as safe, readable text. Arguments are whatever clients
 * sent (keys, values, binary payloads): valid UTF-8 stays as text with control
 * characters escaped; anything else is escaped byte by byte as \xHH, printable
 * ASCII kept. A backslash is doubled so escapes stay unambiguous.
 */
export function argText(bytes: Buffer): string {
  let text: string | undefined;
  try {
    text = utf8.decode(bytes);
  } catch {
    text = undefined;
  }
  if (text !== undefined) {
    let out = '';
    for (const ch of text) {
      const code = ch.codePointAt(0) ?? 0;
      out += ch === '\\' ? '\\\\' : code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) ? hex(code) : ch;
    }
    return out;
  }
  let out = '';
  for (const b of bytes) out += b === 0x5c ? '\\\\' : b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : hex(b);
  return out;
}
