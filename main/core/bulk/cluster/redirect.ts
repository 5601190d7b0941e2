/**
 * A cluster node's answer that the command belongs elsewhere:
 * - MOVED slot host:port: the slot has a new owner for good (resharding done, failover);
 * - ASK slot host:port: the slot is migrating and this key already left; send
 *   ASKING then the command to that node, once, without changing the slot map;
 * - TRYAGAIN: a multi-key command met a slot half migrated; resend it later.
 */
export type Redirect = { kind: 'moved' | 'ask'; slot: number; address: string } | { kind: 'tryagain' };

export function parseRedirect(message: string): Redirect | undefined {
  const text = message.startsWith('-') ? message.slice(1) : message;
  if (text.startsWith('TRYAGAIN')) return { kind: 'tryagain' };
  const m = /^(MOVED|ASK) (\d+) (\S+)$/.exec(text.trim());
  if (m === null) return undefined;
  return { kind: m[1] === 'MOVED' ? 'moved' : 'ask', slot: Number(m[2]), address: m[3] as string };
}
