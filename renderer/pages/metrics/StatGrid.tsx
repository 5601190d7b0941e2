import type { NodeSample } from '../../../app/schemas/metrics';
import { formatKbps, formatLag } from '../../lib/display';
import { formatBytes, formatCount, formatDuration, formatMaxMemory, formatPercent } from '../../lib/format';
import { roleLabel } from '../../lib/nodes';
import type { LinkView } from './replication';
import { Stat } from '../../components/Stat';
import { serverTitle } from '../../../app/redis/serverTitle';

const DASH = '—';

/**
 * The headline figures of one node. A down node keeps its version and role from
 * its last sample while up; the live figures read "—" rather than stale numbers.
 */
export function StatGrid({
  sample,
  lastUp,
  link,
  role: knownRole,
}: {
  sample: NodeSample;
  lastUp: NodeSample | undefined;
  link: LinkView | undefined;
  /** The role the topology gives, for a node down since before the page opened. */
  role: string | undefined;
}) {
  const live = sample.up ? sample : undefined;
  const known = live ?? lastUp;
  const { traffic, memory, clients, replication } = live ?? {};
  const role = known?.role ?? replication?.role ?? knownRole;
  const replicas = replication?.replicas ?? [];
  const withSub = (live?.keyspace ?? []).filter((k) => k.subexpiry !== undefined);
  const subexpiry = withSub.length === 0 ? undefined : withSub.reduce((n, k) => n + (k.subexpiry ?? 0), 0);
  let replSub: string | undefined;
  if (link !== undefined && replication?.masterAddress !== undefined) {
    replSub = `of ${replication.masterAddress}`;
  } else if (replicas.length > 0) {
    replSub = `${replicas.filter((r) => r.state === 'online').length}/${replicas.length} replicas online`;
  }
  return (
    <dl className={`stat-grid ov-stats${live ? '' : ' is-stale'}`}>
      <Stat label="Server" value={known?.version === undefined ? DASH : serverTitle(known.server, known.version)} testId="stat-version" />
      <Stat label="Role" value={roleLabel(role)} testId="stat-role" sub={replSub} />
      <Stat label="Uptime" value={live?.uptimeSeconds === undefined ? DASH : formatDuration(live.uptimeSeconds)} testId="stat-uptime" />
      <Stat
        label="Clients"
        value={clients === undefined ? DASH : formatCount(clients.connected)}
        testId="stat-clients"
        sub={clients === undefined ? undefined : `${formatCount(clients.blocked)} blocked · ${formatCount(clients.rejected)} rejected`}
      />
      <Stat
        label="Used memory"
        value={memory === undefined ? DASH : `${formatBytes(memory.used)} / ${formatMaxMemory(memory.maxmemory)}`}
        testId="stat-memory"
        sub={memory === undefined ? undefined : `peak ${formatBytes(memory.peak)} · rss ${formatBytes(memory.rss)} · frag ${memory.fragmentation.toFixed(2)}`}
      />
      <Stat
        label="Ops/s"
        value={traffic === undefined ? DASH : formatCount(traffic.opsPerSec)}
        testId="stat-ops"
        sub={traffic === undefined ? undefined : `in ${formatKbps(traffic.inputKbps)} · out ${formatKbps(traffic.outputKbps)}`}
      />
      <Stat
        label="Hit ratio"
        value={traffic === undefined ? DASH : formatPercent(traffic.hitRatio ?? undefined)}
        testId="stat-hit-ratio"
        sub={traffic === undefined ? undefined : `${formatCount(traffic.evictionsPerSec)} evicted/s · ${formatCount(traffic.expirationsPerSec)} expired/s`}
      />
      {/* Hash-field expiration (Redis 7.4+): shown only where the server reports it, never as a 0 it did not say. */}
      {live?.expiredSubkeys !== undefined && (
        <Stat
          label="Hash fields expired"
          value={formatCount(live.expiredSubkeys)}
          testId="stat-expired-subkeys"
          sub={subexpiry === undefined ? 'INFO expired_subkeys, since start' : `${formatCount(subexpiry)} hashes with expiring fields (subexpiry)`}
        />
      )}
      <Stat
        label="Replication"
        value={
          link === undefined
            ? replication === undefined
              ? DASH
              : `offset ${formatCount(replication.masterReplOffset)}`
            : link.state === 'down'
              ? 'link down'
              : link.lagBytes !== undefined && link.lagSeconds !== undefined
                ? `lag ${formatLag(link.lagBytes, link.lagSeconds)}`
                : `link ${link.state}`
        }
        testId="stat-replication"
        sub={link === undefined || link.state === 'down' ? undefined : link.detail === undefined ? `link ${link.state}` : `master sees it ${link.detail}`}
      />
    </dl>
  );
}
