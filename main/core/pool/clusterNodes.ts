import type { TopologyNode } from './types';

/** Flags CLUSTER NODES sets on a node that is failing, unreachable or not yet part of the cluster. */
const UNHEALTHY = new Set(['fail', 'fail?', 'handshake', 'noaddr']);

/**
 * Parse CLUSTER NODES: one line per node,
 * `<id> <ip:port@cport[,hostname]> <flags> <master-id|-> <ping> <pong> <epoch> <link> <slot>…`.
 * Slots are "a-b" ranges or single numbers; "[slot->-id]" / "[slot-<-id]" mark
 * slots migrating or importing and are not served yet, so they are skipped.
 * A node with no address yet (noaddr, ":0") keeps an empty host.
 */
export function parseClusterNodes(text: string): TopologyNode[] {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const rows = lines.map((line) => line.trim().split(' '));
  const addressOf = new Map(rows.map((r) => [r[0] ?? '', announced(r[1] ?? '')]));
  return rows.map((r) => {
    const [id = '', addr = '', flagText = '', masterId = '-', , , , link = '', ...slotFields] = r;
    const flags = flagText.split(',').filter((f) => f !== '' && f !== 'noflags');
    const role = flags.includes('master') ? 'master' : 'replica';
    const node: TopologyNode = {
      address: announced(addr),
      role,
      id,
      flags,
      healthy: !flags.some((f) => UNHEALTHY.has(f)) && link === 'connected',
    };
    if (role === 'replica' && masterId !== '-') {
      const master = addressOf.get(masterId);
      if (master !== undefined) node.master = master;
    }
    if (role === 'master') node.slots = slotRanges(slotFields);
    return node;
  });
}

/** "127.0.0.1:7000@17000,host.name" -> "127.0.0.1:7000"; IPv6 stays unbracketed as Redis writes it, so bracket it. */
function announced(field: string): string {
  const hostPort = field.split(',')[0]?.split('@')[0] ?? '';
  const colon = hostPort.lastIndexOf(':');
  const host = hostPort.slice(0, Math.max(colon, 0));
  const port = hostPort.slice(colon + 1);
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function slotRanges(fields: string[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const f of fields) {
    if (f.startsWith('[')) continue;
    const [from, to = from] = f.split('-');
    const a = Number(from);
    const b = Number(to);
    if (Number.isInteger(a) && Number.isInteger(b)) out.push([a, b]);
  }
  return out;
}
