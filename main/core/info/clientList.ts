/** One CLIENT LIST line's name and address (name '' when unset). */
export interface ListedClient {
  name: string;
  addr: string;
}

export function listedClients(list: string): ListedClient[] {
  return list
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => ({ name: /(?:^| )name=(\S*)/.exec(line)?.[1] ?? '', addr: /(?:^| )addr=(\S*)/.exec(line)?.[1] ?? '?' }));
}

/**
 * The first client named `prefix<id>` other than `own`: how a job sees another
 * process's job of its kind on the same server (each names its connections).
 */
export function otherNamed(list: string, prefix: string, own: string): { id: string; addr: string } | undefined {
  const c = listedClients(list).find((x) => x.name.startsWith(prefix) && x.name !== own);
  return c === undefined ? undefined : { id: c.name.slice(prefix.length), addr: c.addr };
}

/** CLIENT LIST refused by the ACL, or not there (a proxy, a renamed command): nothing to see. */
export const clientListRefused = (message: string): boolean => /^NOPERM\b|unknown (sub)?command/i.test(message);
