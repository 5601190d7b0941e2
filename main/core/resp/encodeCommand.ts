/** RESP array of bulk strings, for the few commands the pipe sends itself (AUTH, SELECT…). */
export function encodeCommand(args: readonly string[]): Buffer {
  let out = `*${args.length}\r\n`;
  for (const a of args) out += `$${Buffer.byteLength(a, 'utf8')}\r\n${a}\r\n`;
  return Buffer.from(out, 'utf8');
}
