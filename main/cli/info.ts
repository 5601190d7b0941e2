import type { NodeSample } from '../../app/schemas/metrics';
import { restrictionLine } from '../../app/schemas/restrictions';
import { snapshotProfile, toInfoJson, type InfoSnapshot } from '../core/metrics/infoReport';
import { serverTitle } from '../../app/redis/serverTitle';
import { withCliPool } from './cliPool';
import { parseFlags } from './flags';
import { connectionFlags, specFromFlags, TOPOLOGY_HELP, TOPOLOGY_OPTIONS } from './topologyFlags';

export const INFO_HELP = `Usage: cacheboard info --url redis://[user:pass@]host:port [--json]

One snapshot of the node and every node discovered from it (its replicas, or
its master and the master's replicas): role, up, ops/s, memory, clients,
replication links and lag, persistence and keyspace.

${TOPOLOGY_HELP}  With --cluster every node CLUSTER NODES lists, with its slots, plus cluster_state
  and slot coverage (CLUSTER INFO); with --sentinel the master and replicas the
  sentinels list, plus the sentinels themselves.
The URL may also come from REDIS_URL. Exit code 1 when any discovered node is down.
`;

function human(s: NodeSample, snap: InfoSnapshot): string {
  if (!s.up) return `${s.address}  DOWN  ${s.error ?? ''}`;
  if (s.restrictions !== undefined) return [`${s.address}  up`, ...s.restrictions.map((r) => `  ${restrictionLine(r)}`)].join('\n');
  const mem = s.memory ? `${(s.memory.used / 1048576).toFixed(1)} MiB` : '?';
  const link = s.replication?.masterLinkStatus ? ` link ${s.replication.masterLinkStatus}` : '';
  const slots = snap.slots.get(s.address);
  const served = slots === undefined ? '' : `  slots ${slots.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(',')}`;
  const lines = [
    `${s.address}  ${s.role ?? '?'}  ${s.version === undefined ? '' : serverTitle(s.server, s.version)}  ops/s ${s.traffic?.opsPerSec ?? 0}  mem ${mem}  clients ${s.clients?.connected ?? 0}${link}${served}`,
  ];
  for (const r of s.replication?.replicas ?? []) {
    lines.push(`  -> ${r.address} ${r.state} offset ${r.offset} lag ${r.lagBytes} B / ${r.lagSeconds} s`);
  }
  return lines.join('\n');
}

function heading(snap: InfoSnapshot): string[] {
  const c = snap.cluster;
  if (snap.mode === 'cluster') {
    return [
      c === undefined
        ? 'cluster_state unknown (no node answered CLUSTER INFO)'
        : `cluster_state ${c.state}  slots assigned ${c.slotsAssigned}, ok ${c.slotsOk}, pfail ${c.slotsPfail}, fail ${c.slotsFail}`,
    ];
  }
  if (snap.mode === 'sentinel') {
    return [`sentinels ${(snap.sentinels ?? []).map((s) => `${s.address}${s.healthy ? '' : ` (${s.flags.join(',')})`}`).join(', ')}`];
  }
  return [];
}

export async function info(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const values = parseFlags(argv, { url: { type: 'string' }, ...TOPOLOGY_OPTIONS, json: { type: 'boolean' } }, INFO_HELP);
  const spec = specFromFlags(connectionFlags(values, env));
  return withCliPool(spec, async (pool, id) => {
    const snap = await snapshotProfile(pool, id);
    if (values.json) process.stdout.write(`${JSON.stringify(toInfoJson(snap))}\n`);
    else process.stdout.write(`${[...heading(snap), ...snap.samples.map((s) => human(s, snap))].join('\n')}\n`);
    const clusterOk = snap.mode !== 'cluster' || snap.cluster?.state === 'ok';
    return snap.samples.every((s) => s.up) && clusterOk ? 0 : 1;
  });
}
