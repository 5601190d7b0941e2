/** Test helper for RESP writers, written independently of the encoders it checks (RespBuilder, respFrame). */

/** Decode a RESP stream of arrays of bulk strings; throws on anything else. */
export function decodeCommands(resp: Buffer): Buffer[][] {
  const commands: Buffer[][] = [];
  let i = 0;
  const lineAt = (): string => {
    const crlf = resp.indexOf('\r\n', i, 'latin1');
    if (crlf < 0) throw new Error(`no CRLF after offset ${i}`);
    const text = resp.toString('latin1', i, crlf);
    i = crlf + 2;
    return text;
  };
  while (i < resp.length) {
    const head = lineAt();
    if (!/^\*[1-9]\d*$/.test(head)) throw new Error(`bad array header ${JSON.stringify(head)}`);
    const argc = Number(head.slice(1));
    const args: Buffer[] = [];
    for (let k = 0; k < argc; k++) {
      const bulk = lineAt();
      if (!/^\$\d+$/.test(bulk)) throw new Error(`bad bulk header ${JSON.stringify(bulk)}`);
      const len = Number(bulk.slice(1));
      args.push(Buffer.from(resp.subarray(i, i + len)));
      if (resp.toString('latin1', i + len, i + len + 2) !== '\r\n') throw new Error(`bulk of ${len} not followed by CRLF`);
      i += len + 2;
    }
    commands.push(args);
  }
  return commands;
}
