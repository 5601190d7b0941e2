import { infoNumber } from './infoSnapshot';
import { parseInfoPairs, type InfoSections } from './parseInfo';

/** One slaveN line of a master's INFO replication. */
export interface RawReplicaLink {
  /** "ip:port" as the master reports it (IPv6 unbracketed: the port follows the last colon). */
  address: string;
  state: string;
  /** The offset the replica last acknowledged (REPLCONF ACK, about once a second). */
  offset: number;
  /** Seconds since that acknowledgement. */
  lag: number;
}

/**
 * slaveN lines (`slave0:ip=…,port=…,state=online,offset=…,lag=…`), in N order. A replica lists
 * its own sub-replicas the same way (chained replication), so this works on any node. A line
 * without ip or port names no node and is skipped.
 */
export function replicaLinksOf(sections: InfoSections): RawReplicaLink[] {
  const repl = sections['replication'] ?? {};
  const out: RawReplicaLink[] = [];
  for (const [field, value] of Object.entries(repl)) {
    if (!/^slave\d+$/.test(field)) continue;
    const p = parseInfoPairs(value);
    if (p['ip'] === undefined || p['port'] === undefined) continue;
    out.push({
      address: `${p['ip']}:${p['port']}`,
      state: p['state'] ?? 'unknown',
      offset: infoNumber(p['offset']),
      lag: infoNumber(p['lag']),
    });
  }
  return out;
}
