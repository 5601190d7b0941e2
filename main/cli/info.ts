import type { NodeSample } from '../../app/schemas/metrics';
import { snapshotAll, toInfoJson } from '../core/metrics/infoReport';
import { Pool } from '../core/pool/pool';
import { parseFlags } from './flags';
import { connectionFlags, singleNodeSpec, specFromFlags, TOPOLOGY_HELP, TOPOLOGY_OPTIONS } from './topologyFlags';

export const INFO_HELP = `Usage: cacheboard info --url redis://[user:pass@]host:port [--json]

One snapshot of the node and every node discovered from it (its replicas, or
its master and the master's replicas): role, up, ops/s, memory, clients,
replication links and lag, persistence and keyspace.

${TOPOLOGY_HELP}  With --sentinel it starts at the master the sentinels name; a cluster is
  refused for now (every node of a cluster arrives with issue 10).
The URL may also come from REDIS_URL. Exit code 1 when any discovered node is down.
`;

function human(s: NodeSample): string {
  if (!s.up) return `${s.address}  DOWN  ${s.error ?? ''}`;
  const mem = s.memory ? `${(s.memory.used / 1048576).toFixed(1)} MiB` : '?';
  const link = s.replication?.masterLinkStatus ? ` link ${s.replication.masterLinkStatus}` : '';
  const lines = [
    `${s.address}  ${s.role ?? '?'}  ${s.version ?? ''}  ops/s ${s.traffic?.opsPerSec ?? 0}  mem ${mem}  clients ${s.clients?.connected ?? 0}${link}`,
  ];
  for (const r of s.replication?.replicas ?? []) {
    lines.push(`  -> ${r.address} ${r.state} offset ${r.offset} lag ${r.lagBytes} B / ${r.lagSeconds} s`);
  }
  return lines.join('\n');
}

export async function info(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const values = parseFlags(argv, { url: { type: 'string' }, ...TOPOLOGY_OPTIONS, json: { type: 'boolean' } }, INFO_HELP);
  // Discovery starts at one server: a sentinel profile's master as the sentinels name it now.
  const spec = await singleNodeSpec(specFromFlags(connectionFlags(values, env)), 'cacheboard info');
  const pool = new Pool({ resolve: (id) => (id === 'cli' ? { id, source: 'config', spec } : undefined) });
  try {
    const samples = await snapshotAll(pool, 'cli');
    if (values.json) process.stdout.write(`${JSON.stringify(toInfoJson(samples))}\n`);
    else process.stdout.write(`${samples.map(human).join('\n')}\n`);
    return samples.every((s) => s.up) ? 0 : 1;
  } finally {
    await pool.shutdown();
  }
}
