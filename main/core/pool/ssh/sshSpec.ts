/** `[user@]host[:port]` as ssh -J and ProxyJump take it (IPv6 hosts in brackets: `[::1]:2222`). */
export interface SshSpec {
  user?: string;
  host: string;
  port?: number;
}

export function parseSshSpec(spec: string): SshSpec {
  let rest = spec.trim().replace(/^ssh:\/\//, '');
  let user: string | undefined;
  const at = rest.lastIndexOf('@');
  if (at >= 0) {
    user = rest.slice(0, at);
    rest = rest.slice(at + 1);
  }
  let host = rest;
  let portText: string | undefined;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(rest);
  if (bracketed) {
    host = bracketed[1] ?? '';
    portText = bracketed[2];
  } else if (rest.split(':').length === 2) {
    [host, portText] = rest.split(':') as [string, string];
  }
  if (host === '' || (user !== undefined && user === '')) throw new Error(`Not an SSH host: "${spec}" (expected [user@]host[:port])`);
  const out: SshSpec = { host };
  if (user !== undefined) out.user = user;
  if (portText !== undefined) {
    const port = Number(portText);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`Not an SSH port in "${spec}"`);
    out.port = port;
  }
  return out;
}
