import { infoNumber } from '../../info/infoSnapshot';
import { parseInfo, parseInfoPairs } from '../../info/parseInfo';

/**
 * The replica furthest behind its master, from the master's INFO replication: master_repl_offset
 * less the offset each online replica last acknowledged (REPLCONF ACK, about once a second, so a
 * healthy replica under writes reads up to a second's worth behind). A replica still in its first
 * sync has no offset to compare yet and is left out. Says which replica and how far when one is
 * more than `limitBytes` behind; null when none is (or the node has no replica).
 */
export function replicaBehind(infoReplication: string, limitBytes: number): string | null {
  const repl = parseInfo(infoReplication)['replication'] ?? {};
  const master = infoNumber(repl['master_repl_offset']);
  let worst: { address: string; behind: number } | null = null;
  for (const [field, value] of Object.entries(repl)) {
    if (!/^slave\d+$/.test(field)) continue;
    const r = parseInfoPairs(value);
    if (r['state'] !== 'online') continue;
    const behind = master - infoNumber(r['offset']);
    if (worst === null || behind > worst.behind) worst = { address: `${r['ip'] ?? '?'}:${r['port'] ?? '?'}`, behind };
  }
  if (worst === null || worst.behind <= limitBytes) return null;
  return `replica ${worst.address} is ${size(worst.behind)} behind (limit ${size(limitBytes)})`;
}

/** "12.3 MB", "10 MB", "64 KB", "900 bytes": one decimal, none when it is .0. */
function size(bytes: number): string {
  const [n, unit] =
    bytes >= 1024 ** 3 ? [bytes / 1024 ** 3, 'GB'] : bytes >= 1024 ** 2 ? [bytes / 1024 ** 2, 'MB'] : bytes >= 1024 ? [bytes / 1024, 'KB'] : [bytes, 'bytes'];
  return `${Number(n.toFixed(1))} ${unit}`;
}
