const CRLF = Buffer.from('\r\n');

/**
 * RESP array of bulk strings, for the few commands sent by hand (AUTH, SELECT, SUBSCRIBE…).
 * Text goes as UTF-8; bytes (channel names, payloads) go as they are.
 */
export function encodeCommand(args: readonly (string | Uint8Array)[]): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${args.length}\r\n`)];
  for (const a of args) {
    const bytes = typeof a === 'string' ? Buffer.from(a, 'utf8') : Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, CRLF);
  }
  return Buffer.concat(parts);
}
