import type { InfoSnapshot } from '../../../app/schemas/server';
import { formatBytes, formatCount, formatDuration, formatMaxMemory, formatPercent, hitRatio } from '../../lib/format';

function Stat({ label, value, testId, sub }: { label: string; value: string; testId?: string; sub?: string }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd>
        <span className="stat-value" data-testid={testId}>
          {value}
        </span>
        {sub !== undefined && <span className="stat-sub">{sub}</span>}
      </dd>
    </div>
  );
}

/** The headline figures of one INFO snapshot. */
export function StatGrid({ info }: { info: InfoSnapshot }) {
  const { server, memory, stats, clients } = info;
  const ratio = hitRatio(stats.keyspaceHits, stats.keyspaceMisses);
  return (
    <dl className="stat-grid">
      <Stat label="Version" value={server.version} testId="stat-version" />
      <Stat label="Role" value={info.role} testId="stat-role" />
      <Stat label="Uptime" value={formatDuration(server.uptimeSeconds)} testId="stat-uptime" />
      <Stat
        label="Clients"
        value={formatCount(clients.connected)}
        testId="stat-clients"
        sub={clients.blocked > 0 ? `${formatCount(clients.blocked)} blocked` : undefined}
      />
      <Stat
        label="Used memory"
        value={`${formatBytes(memory.used)} / ${formatMaxMemory(memory.maxmemory)}`}
        testId="stat-memory"
        sub={`peak ${formatBytes(memory.peak)} · frag ${memory.fragmentation.toFixed(2)}`}
      />
      <Stat label="Ops/s" value={formatCount(stats.opsPerSec)} testId="stat-ops" />
      <Stat
        label="Hit ratio"
        value={formatPercent(ratio)}
        testId="stat-hit-ratio"
        sub={`${formatCount(stats.keyspaceHits)} hits · ${formatCount(stats.keyspaceMisses)} misses`}
      />
      <Stat label="Mode" value={server.mode} testId="stat-mode" />
    </dl>
  );
}
